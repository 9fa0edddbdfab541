-- The build each node's agent last reported in its status (mesh.wire.Build), for node list's VERSION column.
-- An observation, not the mesh's intent: no fence (a replaced controller may still note what it heard) and
-- no foreign key (a removed node's row is never shown: node list joins on nodes).
create table agent_builds (
    node       text primary key,
    version    text not null,
    git_commit text,
    heard_at   timestamptz not null default now()
);
