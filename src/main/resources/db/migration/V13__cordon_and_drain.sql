-- mesh node cordon: no new assignment, take or restore onto a cordoned node; what runs there stays.
alter table nodes add column cordoned boolean not null default false;

-- mesh drain: a node emptied onto others by takes, K at a time (docs/drain.md). One row per drain; the step is
-- the next to carry out, so a controller that dies mid-drain carries it on at its next start.
create table drains (
    id         bigserial primary key,
    node       text not null,                -- no foreign key: the record outlives the node
    targets    jsonb not null default '[]',  -- the --to nodes asked (empty: every node not cordoned)
    parallel   int not null,
    deadline_at timestamptz,                 -- no take begins after it; null: none
    step       text not null,                -- the next step (DrainStep)
    state      text not null,                -- running | done | failed
    modules    jsonb not null default '[]',  -- per module: name, state, target, reason, downtime
    error      text,
    problem    text,
    started_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);
create unique index drains_one_running_per_node on drains (node) where state = 'running';

create trigger fence before insert or update or delete on drains for each statement execute function mesh_fence();
