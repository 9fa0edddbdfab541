-- The controller's store. Every verb is one transaction; a push holds an advisory lock.
create table nodes (
    name          text primary key,
    address       text not null,
    agent         text not null,
    agent_token   text not null,
    public_domain text,
    created_at    timestamptz not null default now()
);

create table modules (
    name     text primary key,
    manifest jsonb not null,  -- the checked manifest, as mesh reads it
    source   text not null,   -- the file it was added from
    added_at timestamptz not null default now()
);

-- assigned: where the module is meant to run; taken: where it runs with its data.
-- Names and routes follow taken (invariant 4).
create table placements (
    module   text primary key references modules (name),
    assigned text references nodes (name),
    taken    text references nodes (name)
);

-- What each node last acknowledged, so a push sends exactly the nodes whose declaration differs.
create table node_pushes (
    node              text primary key references nodes (name) on delete cascade,
    last_generation   bigint not null default 0,  -- highest generation ever sent; generations only grow
    acked_generation  bigint not null default 0,
    acked_declaration jsonb,                      -- address and components the node acknowledged
    last_error        text,
    updated_at        timestamptz
);

-- The roster as of the last push that succeeded in planning: what `mesh roster` shows.
create table roster (
    name    text primary key,
    address text not null,
    node    text not null,
    module  text not null,
    kind    text not null
);
