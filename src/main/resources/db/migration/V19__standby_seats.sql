-- The seat's standbys (docs/seat.md): one row per node 'mesh seat add' made a hot standby of the store. The
-- controller's standby watch reads it to know whose replication to look at; 'mesh status' shows each with its state.
-- The replication itself is PostgreSQL's own: nothing of it is here.
create table standby_seats (
    node           text primary key references nodes (name) on delete cascade,
    added          timestamptz not null,
    out_of_sync    timestamptz                -- since when it is not in sync (null while it is), kept across restarts
);
create trigger fence before insert or update or delete on standby_seats for each statement execute function mesh_fence();
