-- The modules' secrets (docs/trust.md, "Secrets"): each value sealed with AES-256-GCM under a key
-- that is not in the store (the seat's install/secrets.key, MESH_SECRETS_KEY_FILE). A dump or a
-- backup of this table holds no value: only names, versions, who set them when, and ciphertexts.
create table secrets (
    module   text not null,
    name     text not null,
    version  integer not null,         -- 1 at the first 'mesh secret set', one more at each after
    key_id   text not null,            -- which seal key of the key file sealed it
    sealed   bytea not null,           -- 12-byte nonce, ciphertext, 16-byte tag; aad 'module/name/version'
    hmac     text not null,            -- HMAC-SHA256 of the value under the key file's digest key: the spec digest's
    set_at   timestamptz not null default now(),
    set_by   text not null,            -- the operator token's name
    primary key (module, name)
);

create trigger fence before insert or update or delete on secrets for each statement execute function mesh_fence();
