-- Agent tokens out of the store (docs/trust.md, "Agent tokens in the store").
--
-- An agent takes calls only from its mesh's controller's client certificate (mutual TLS), so the
-- controller no longer needs any node's agent token: the sealed tokens are dropped, not migrated.
-- A mesh made before this release keeps working as it is: its agents already require the
-- controller's certificate, and an agent of this release ignores a bearer token.
alter table nodes drop column agent_token;

-- A node added with 'mesh node add' gets a one-time join token instead, for its installer's
-- POST /v1/join: kept only as its SHA-256 (32 random bytes, as operator tokens), with when it was
-- made (it is refused 24 h after). The first successful join spends it (join_token_hash cleared,
-- join_token_made kept, so a second join is told "spent"); 'mesh node token NAME --rotate' makes a
-- new one. Existing rows get none. The nodes table keeps its fence trigger (V2).
alter table nodes add column join_token_hash bytea,
                  add column join_token_made timestamptz;
