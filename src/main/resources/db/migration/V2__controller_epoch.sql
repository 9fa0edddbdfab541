-- The controller's epoch fences a replaced controller (mesh install's temporary one, after the
-- pivot): each controller sets its epoch on every transaction (set local mesh.epoch), starting one
-- raises the store's to its own, and a write by a controller older than the store's is refused.
create table controller_epoch (
    epoch bigint not null
);
insert into controller_epoch values (0);

create function mesh_fence() returns trigger language plpgsql as $$
declare
    mine   bigint := coalesce(nullif(current_setting('mesh.epoch', true), ''), '0')::bigint;
    newest bigint;
begin
    select epoch into newest from controller_epoch;
    if mine < newest then
        raise exception 'this controller (epoch %) has been replaced by a newer one (epoch %); it refuses every write', mine, newest
            using errcode = 'ME001';
    end if;
    return null;
end
$$;

create trigger fence before insert or update or delete on nodes for each statement execute function mesh_fence();
create trigger fence before insert or update or delete on modules for each statement execute function mesh_fence();
create trigger fence before insert or update or delete on placements for each statement execute function mesh_fence();
create trigger fence before insert or update or delete on node_pushes for each statement execute function mesh_fence();
create trigger fence before insert or update or delete on roster for each statement execute function mesh_fence();
