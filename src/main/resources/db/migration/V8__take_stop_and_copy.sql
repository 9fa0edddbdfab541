-- A take copies its volumes while the module runs (the pre-copy, docs/take.md) unless it was asked to copy only
-- after the fence (mesh take --stop-and-copy): the runner reads this at the preflight's end, also after a restart.
alter table takes add column stop_and_copy boolean not null default false;
