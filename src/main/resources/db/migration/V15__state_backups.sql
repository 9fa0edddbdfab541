-- The seat's state backups (docs/rebuild.md): one row per state backup made ('mesh seat backup'), written by the verb
-- on the seat through the store's connection after the artifact is in its place. 'mesh status' shows the newest.
-- No fence trigger: the row records a file written outside the controller, by no controller epoch.
create table state_backups (
    id      bigserial primary key,
    made    timestamptz not null,          -- the artifact header's time
    place   text not null,                 -- where it is: file:/abs/path, or node:NAME/ref
    bytes   bigint not null,
    mesh    text not null                  -- the mesh it is of (its CA's hash)
);
create index state_backups_made on state_backups (made desc);
