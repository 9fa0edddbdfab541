-- What each push planned from, so 'mesh rollback PUSH' can plan the mesh from it again
-- (docs/design.md, "Rollback"). One row per push that sent something, written in the transaction
-- that records the push's audit row, keyed by that row's id (the push's id: 'mesh audit', and
-- "push N" in 'mesh host history'). Only the newest 50 are kept (mesh.plan.Rollback.KEPT): the
-- push that stores one deletes the older ones in the same transaction.
create table push_inputs (
    push        bigint primary key,       -- audit.id of the push; no foreign key: the audit is never pruned
    at          timestamptz not null default now(),
    catalogue   jsonb not null,           -- [{manifest, source}]: each module as the modules table held it
    placements  jsonb not null,           -- [{module, assigned, taken}]
    nodes       jsonb not null,           -- [{name, publicDomain}]: the nodes planned (a rollback plans with today's)
    pins        jsonb not null default '{}',  -- bundle reference -> the digest it was pinned to
    rollback_of bigint                    -- when the push was a rollback, the push it rolled back to
);

create trigger fence before insert or update or delete on push_inputs for each statement execute function mesh_fence();
