-- A take's copy on a target that did not answer when the take rolled back before the start (its agent stopped,
-- its link down): never started there (that node was never sent a declaration with the module), and deleted
-- by the controller's watch once the node's agent answers again (mesh.controller.LeftCopies).
create table left_copies (
    module       text not null,
    node         text not null,
    epoch        bigint not null,            -- the take's epoch: the agent deletes only the copy that take made
    volumes      jsonb not null,             -- [{name, kind}]
    left_at      timestamptz not null default now(),
    primary key (module, node, epoch)
);

create trigger fence before insert or update or delete on left_copies for each statement execute function mesh_fence();
