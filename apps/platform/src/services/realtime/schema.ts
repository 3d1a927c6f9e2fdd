import type pg from 'pg'
import { inClientTransaction } from '../../store/db.js'
import { AUTHENTICATOR_ROLE, READONLY_ROLE, REALTIME_ADMIN_ROLE, USER_ROLE, bootstrapRealtimeRoles } from '../../control/bootstrap-roles.js'

/** The tables whose changes reach postgres_changes subscribers; `postgres` owns it and adds tables to it. */
export const CHANGES_PUBLICATION = 'supabase_realtime'
/** realtime.messages, whose inserts (realtime.send) are broadcast; the platform's own. */
export const MESSAGES_PUBLICATION = 'supabase_realtime_messages_publication'

/**
 * The realtime schema as Supabase projects have it (docs/research/realtime-protocol.md §5.4, §9.11), made with the
 * superuser session's pinned search_path, every name qualified. Safe to run again.
 */
export async function ensureRealtimeSchema(client: pg.Client, adminPassword: string): Promise<void> {
  const literal = (value: string) => client.escapeLiteral(value)
  // Projects made before realtime lack its roles.
  await bootstrapRealtimeRoles(client, adminPassword)
  await client.query(`CREATE SCHEMA IF NOT EXISTS realtime AUTHORIZATION ${REALTIME_ADMIN_ROLE}`)
  await client.query(`ALTER SCHEMA realtime OWNER TO ${REALTIME_ADMIN_ROLE}`)
  // authenticator: the platform's realtime pool calls stratum_visible_rows before taking a subscriber's role.
  await client.query(`GRANT USAGE ON SCHEMA realtime TO ${USER_ROLE}, anon, authenticated, service_role, ${AUTHENTICATOR_ROLE}, ${READONLY_ROLE}`)
  await client.query(`CREATE TABLE IF NOT EXISTS realtime.messages (
    id uuid NOT NULL DEFAULT pg_catalog.gen_random_uuid(),
    topic text NOT NULL,
    extension text NOT NULL,
    payload jsonb,
    binary_payload bytea,
    event text,
    private boolean DEFAULT false,
    updated_at timestamp without time zone NOT NULL DEFAULT pg_catalog.now(),
    inserted_at timestamp without time zone NOT NULL DEFAULT pg_catalog.now(),
    PRIMARY KEY (id, inserted_at)
  )`)
  await client.query('CREATE INDEX IF NOT EXISTS messages_inserted_at_topic_index ON realtime.messages (inserted_at DESC, topic)')
  await client.query(`ALTER TABLE realtime.messages OWNER TO ${REALTIME_ADMIN_ROLE}`)
  await client.query('ALTER TABLE realtime.messages ENABLE ROW LEVEL SECURITY')
  await client.query('GRANT SELECT, INSERT, UPDATE ON realtime.messages TO anon, authenticated, service_role')
  // service_role also deletes: the platform prunes old messages as it (pruneMessages).
  await client.query('GRANT DELETE ON realtime.messages TO service_role')
  await client.query(`GRANT ALL ON realtime.messages TO ${USER_ROLE}`)
  // The SQL editor's first try and introspection read it like auth's and storage's tables.
  await client.query(`GRANT SELECT ON realtime.messages TO ${READONLY_ROLE}`)
  // The check before it took no transaction ids: a second overload would make every call ambiguous.
  await client.query('DROP FUNCTION IF EXISTS realtime.stratum_visible_rows(regclass, text[], jsonb, jsonb, boolean)')
  for (const definition of FUNCTIONS) await client.query(definition)
  for (const signature of FUNCTION_SIGNATURES) {
    await client.query(`ALTER FUNCTION ${signature} OWNER TO ${REALTIME_ADMIN_ROLE}`)
    await client.query(`GRANT EXECUTE ON FUNCTION ${signature} TO ${USER_ROLE}, anon, authenticated, service_role`)
  }
  await client.query(`GRANT EXECUTE ON FUNCTION realtime.stratum_visible_rows(regclass, text[], jsonb, jsonb, boolean, bigint[]) TO ${AUTHENTICATOR_ROLE}`)
  await client.query(`DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_publication WHERE pubname = ${literal(CHANGES_PUBLICATION)}) THEN
      CREATE PUBLICATION ${CHANGES_PUBLICATION};
      ALTER PUBLICATION ${CHANGES_PUBLICATION} OWNER TO ${USER_ROLE};
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_publication WHERE pubname = ${literal(MESSAGES_PUBLICATION)}) THEN
      CREATE PUBLICATION ${MESSAGES_PUBLICATION} FOR TABLE realtime.messages WITH (publish = 'insert');
    END IF;
  END $$`)
}

const FUNCTION_SIGNATURES = [
  'realtime.topic()',
  'realtime.send(jsonb, text, text, boolean)',
  'realtime.send_binary(bytea, text, text, boolean)',
  'realtime.broadcast_changes(text, text, text, text, text, record, record, text)',
  'realtime.stratum_visible_rows(regclass, text[], jsonb, jsonb, boolean, bigint[])',
]

const FUNCTIONS = [
  `CREATE OR REPLACE FUNCTION realtime.topic() RETURNS text LANGUAGE sql STABLE
     AS $$ SELECT NULLIF(pg_catalog.current_setting('realtime.topic', true), '')::text $$`,
  // Broadcast from SQL: the row is the message; the change stream delivers it once the transaction commits.
  `CREATE OR REPLACE FUNCTION realtime.send(payload jsonb, event text, topic text, private boolean DEFAULT true) RETURNS void
     LANGUAGE plpgsql VOLATILE AS $$
     DECLARE
       generated uuid := pg_catalog.gen_random_uuid();
     BEGIN
       BEGIN
         PERFORM pg_catalog.set_config('realtime.topic', topic, true);
         INSERT INTO realtime.messages (id, payload, event, topic, private, extension)
         VALUES (generated, CASE WHEN payload ? 'id' THEN payload ELSE payload || pg_catalog.jsonb_build_object('id', generated) END,
                 event, topic, private, 'broadcast');
       EXCEPTION WHEN OTHERS THEN
         RAISE WARNING 'WarnSendingBroadcastMessage: %', SQLERRM;
       END;
     END $$`,
  `CREATE OR REPLACE FUNCTION realtime.send_binary(payload bytea, event text, topic text, private boolean DEFAULT true) RETURNS void
     LANGUAGE plpgsql VOLATILE AS $$
     BEGIN
       BEGIN
         PERFORM pg_catalog.set_config('realtime.topic', topic, true);
         INSERT INTO realtime.messages (binary_payload, event, topic, private, extension) VALUES (payload, event, topic, private, 'broadcast');
       EXCEPTION WHEN OTHERS THEN
         RAISE WARNING 'WarnSendingBroadcastMessage: %', SQLERRM;
       END;
     END $$`,
  `CREATE OR REPLACE FUNCTION realtime.broadcast_changes(topic_name text, event_name text, operation text, table_name text, table_schema text,
       new record, old record, level text DEFAULT 'ROW') RETURNS void LANGUAGE plpgsql VOLATILE AS $$
     BEGIN
       IF level = 'STATEMENT' THEN
         RAISE EXCEPTION 'function can only be triggered for each row, not for each statement';
       END IF;
       PERFORM realtime.send(
         pg_catalog.jsonb_build_object('old_record', CASE WHEN old IS NULL THEN NULL ELSE pg_catalog.to_jsonb(old) END,
                                       'record', CASE WHEN new IS NULL THEN NULL ELSE pg_catalog.to_jsonb(new) END,
                                       'operation', operation, 'table', table_name, 'schema', table_schema),
         event_name, topic_name);
     END $$`,
  // The platform's batch check for postgres_changes (changes/visibility.ts), run as authenticator in a transaction
  // the platform rolls back: for each subscriber group (a role and its JWT claims) the columns it may select, and
  // which of the changed rows (by primary key) its row-level security lets it see. A policy that fails hides the
  // rows from that group only.
  // A change is streamed once its commit record is flushed, which is a moment before the committing session leaves
  // the running transactions: a snapshot taken in between does not see the row yet (a busy machine hid a fresh insert
  // from even service_role). So the check first waits, bounded (about 4 s, under the pool's 5 s statement timeout), until
  // a new snapshot runs none of the changes' transactions (xids, 32-bit as pgoutput gives them); each statement below
  // takes a new snapshot.
  `CREATE OR REPLACE FUNCTION realtime.stratum_visible_rows(entity regclass, key_columns text[], keys jsonb, checks jsonb, check_rows boolean, xids bigint[])
     RETURNS TABLE (check_index integer, selectable text[], visible integer[]) LANGUAGE plpgsql VOLATILE AS $$
     DECLARE
       item jsonb;
       rls boolean;
       condition text;
     BEGIN
       -- Running in a snapshot: among its xip, or at or past its xmax (compared as 32-bit ids, modulo wraparound).
       FOR attempt IN 1..4000 LOOP
         EXIT WHEN NOT EXISTS (
           SELECT 1 FROM (SELECT pg_catalog.pg_current_snapshot() AS s) AS snap, pg_catalog.unnest(xids) AS t(xid)
            WHERE (t.xid - pg_catalog.pg_snapshot_xmax(snap.s)::text::bigint % 4294967296 + 4294967296) % 4294967296 < 2147483648
               OR t.xid IN (SELECT x::text::bigint % 4294967296 FROM pg_catalog.pg_snapshot_xip(snap.s) AS x));
         PERFORM pg_catalog.pg_sleep(0.001);
       END LOOP;
       SELECT c.relrowsecurity INTO rls FROM pg_catalog.pg_class c WHERE c.oid = entity;
       SELECT pg_catalog.string_agg(pg_catalog.format('t.%I = (k.v ->> %s)::%s', a.attname, kc.ord - 1,
                                                      pg_catalog.format_type(a.atttypid, a.atttypmod)), ' AND ')
         INTO condition
         FROM pg_catalog.unnest(key_columns) WITH ORDINALITY AS kc(name, ord)
         JOIN pg_catalog.pg_attribute a ON a.attrelid = entity AND a.attname = kc.name;
       check_index := 0;
       FOR item IN SELECT e.value FROM pg_catalog.jsonb_array_elements(checks) AS e LOOP
         BEGIN
           PERFORM pg_catalog.set_config('role', item ->> 'role', true);
           PERFORM pg_catalog.set_config('request.jwt.claims', item ->> 'claims', true);
           PERFORM pg_catalog.set_config('request.jwt.claim.sub', COALESCE((item ->> 'claims')::jsonb ->> 'sub', ''), true);
           PERFORM pg_catalog.set_config('request.jwt.claim.role', item ->> 'role', true);
           selectable := ARRAY(SELECT a.attname::text FROM pg_catalog.pg_attribute a
                                WHERE a.attrelid = entity AND a.attnum > 0 AND NOT a.attisdropped
                                  AND pg_catalog.has_column_privilege(entity, a.attnum, 'SELECT') ORDER BY a.attnum);
           IF condition IS NULL OR NOT (key_columns <@ selectable) THEN
             visible := '{}';
           ELSIF NOT check_rows OR NOT rls THEN
             visible := ARRAY(SELECT pg_catalog.generate_series(0, pg_catalog.jsonb_array_length(keys) - 1));
           ELSE
             EXECUTE pg_catalog.format('SELECT COALESCE(pg_catalog.array_agg((k.i - 1)::integer), ''{}'')
                                          FROM pg_catalog.jsonb_array_elements($1) WITH ORDINALITY AS k(v, i)
                                         WHERE EXISTS (SELECT 1 FROM %s t WHERE %s)', entity, condition)
               INTO visible USING keys;
           END IF;
         EXCEPTION WHEN OTHERS THEN
           -- A role the session cannot take, a policy that fails: nothing for this group.
           selectable := '{}';
           visible := '{}';
         END;
         RETURN NEXT;
         check_index := check_index + 1;
       END LOOP;
     END $$`,
]

/**
 * Sent messages are kept three days, as Supabase keeps its daily partitions. Deleted as service_role through the
 * authenticator pool, never from a superuser session: the project can put triggers on realtime.messages.
 */
export async function pruneMessages(pool: pg.Pool): Promise<void> {
  const client = await pool.connect()
  let broken = false
  try {
    await inClientTransaction(
      client,
      async () => {
        await client.query(`SELECT pg_catalog.set_config('role', 'service_role', true)`)
        await client.query(`DELETE FROM realtime.messages WHERE inserted_at < pg_catalog.now() - interval '3 days'`)
      },
      () => (broken = true),
    )
  } finally {
    client.release(broken)
  }
}
