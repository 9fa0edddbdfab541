-- Named operator tokens and the audit trail (docs/trust.md).
--
-- operator_tokens holds each operator token as the SHA-256 of the token, never the token: a token
-- is 32 random bytes, so a plain hash cannot be turned back into it and needs no salt or slow KDF.
-- A revoked token keeps its row (revoked_at set), so the audit's names stay unambiguous: a name is
-- never given to a second token.
create table operator_tokens (
    name       text primary key,
    hash       bytea not null unique,
    created_at timestamptz not null default now(),
    created_by text not null,       -- the token that made it, or 'controller' for the bootstrap token
    revoked_at timestamptz
);

-- audit: one row per write verb, written in the verb's own transaction: who (the token's name),
-- when (the transaction's time), which verb and what changed, as words. It never holds a token.
create table audit (
    id     bigserial primary key,
    at     timestamptz not null default now(),
    token  text not null,           -- no foreign key: the trail outlives the tokens it names
    verb   text not null,
    change text not null
);
create index audit_at on audit (at);
create index audit_token_at on audit (token, at);  -- each token's last write, for mesh token list

create trigger fence before insert or update or delete on operator_tokens for each statement execute function mesh_fence();
create trigger fence before insert or update or delete on audit for each statement execute function mesh_fence();
