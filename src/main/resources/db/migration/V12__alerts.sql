-- The places the controller posts its alerts to (mesh alerts add URL): Alertmanager's base URL.
create table alert_receivers (
    url        text primary key,
    added_at   timestamptz not null default now(),
    added_by   text not null
);

-- The controller's alerts (mesh.plan.AlertRules): pending (fired_at null), firing, or resolved (resolved_at set, kept
-- a while so the resolve is posted again after a controller restart). One alert per kind and subject at a time.
create table alerts (
    kind         text not null,                -- AlertRules.Kind
    subject      text not null,                -- the node, module@node, module, …
    node         text,                         -- the node it is about, when it is about one
    detail       text not null,
    since        timestamptz not null,         -- the first look that saw its condition
    fired_at     timestamptz,
    clear_since  timestamptz,                  -- its condition is gone since (a firing alert waits CLEAR_HOLD)
    resolved_at  timestamptz,                  -- when its condition was first gone, once resolved
    primary key (kind, subject, since)
);
create unique index alerts_one_open_per_subject on alerts (kind, subject) where resolved_at is null;

create trigger fence before insert or update or delete on alert_receivers for each statement execute function mesh_fence();
create trigger fence before insert or update or delete on alerts for each statement execute function mesh_fence();
