-- Backups (docs/backup.md): each backup and each restore is carried out in recorded steps, like a take; the record
-- is the plan's value as JSON (mesh.plan.Backup, mesh.plan.Restore), the columns what is looked up or listed by.
create table backups (
    id           bigserial primary key,
    module       text not null,              -- no foreign keys: a backup outlives its module and nodes
    state        text not null,              -- running | done | failed
    trigger      text not null,              -- operator | schedule
    record       jsonb not null,             -- mesh.plan.Backup: step, node, registry, repository, tag, epoch, totals
    started_at   timestamptz not null default now(),
    ended_at     timestamptz,
    verified_at  timestamptz,                -- the last mesh backup verify
    verify_error text,                       -- what it found wrong (null: every file matched)
    removed_at   timestamptz                 -- retention removed it from the registry
);
create unique index backups_one_running_per_module on backups (module) where state = 'running';

create table restores (
    id         bigserial primary key,
    module     text not null,
    state      text not null,                -- running | done | rolled-back | failed
    record     jsonb not null,               -- mesh.plan.Restore
    started_at timestamptz not null default now(),
    ended_at   timestamptz
);
create unique index restores_one_running_per_module on restores (module) where state = 'running';

-- A module's copy on a node that did not answer when the module was restored elsewhere: fenced there (and recorded
-- as an old copy) by the controller the first time the node's agent answers again.
create table lost_copies (
    module       text not null,
    node         text not null,
    epoch        bigint not null,            -- the restore's take epoch, which the fence carries
    volumes      jsonb not null,             -- [{name, kind}]
    lost_at      timestamptz not null default now(),
    fenced_at    timestamptz,                -- when the node's agent confirmed the fence (null: not yet)
    primary key (module, node, epoch)
);

create trigger fence before insert or update or delete on backups for each statement execute function mesh_fence();
create trigger fence before insert or update or delete on restores for each statement execute function mesh_fence();
create trigger fence before insert or update or delete on lost_copies for each statement execute function mesh_fence();
