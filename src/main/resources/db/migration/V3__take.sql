-- mesh take: a module moves with its data in recorded steps (docs/take.md). One row per take; the
-- step is the next one to carry out, so a controller that dies mid-step redoes that step (every
-- step is idempotent) when the take is resumed.
create sequence take_epoch;  -- take epochs: monotonic across the mesh, fence calls carry them

create table takes (
    epoch      bigint primary key,           -- from take_epoch
    module     text not null,                -- no foreign keys: a take's record outlives its module and nodes
    from_node  text,                         -- null: the module ran nowhere
    to_node    text not null,
    back       boolean not null default false,  -- mesh take --back
    step       text not null,                -- the next step (TakeStep), or done / rolled-back / failed
    state      text not null,                -- running | done | rolled-back | failed
    volumes    jsonb not null default '[]',  -- per volume: name, kind, bytes, files, copied, manifest digests
    ticket     text,                         -- the source's read ticket for this epoch
    error      text,                         -- why the take failed or rolls back
    problem    text,                         -- why the last attempt of the current step did not succeed
    started_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);
create unique index takes_one_running_per_module on takes (module) where state = 'running';

-- The copies takes left on their sources; removed only by mesh take --forget-old.
create table take_old_copies (
    module       text not null,
    node         text not null,
    epoch        bigint not null,
    volumes      jsonb not null,   -- the volume names
    left_at      timestamptz not null default now(),
    forgotten_at timestamptz,      -- set when forgotten, or when a later take copied over it
    primary key (module, node, epoch)
);

create trigger fence before insert or update or delete on takes for each statement execute function mesh_fence();
create trigger fence before insert or update or delete on take_old_copies for each statement execute function mesh_fence();
