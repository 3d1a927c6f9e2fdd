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
  // Its cost is groups x rows (issue 28: 100 users each their own group, a change per millisecond), so the work per
  // group is kept small: the groups go by role, and a role's column privileges (which claims do not change) are read
  // once per role, not per group; a one-column key (the common case) is looked up as one typed array, `key = ANY`, an
  // index scan for the whole batch, instead of a jsonb element, a cast and an EXISTS per row (which a policy like
  // `owner = auth.uid()` turned into a scan of the whole table per group); the lookup is planned once, not per group.
  // Each group is still its own subtransaction with its own role and claims, its RLS and privileges checked by the
  // lookup itself, except where the claims cannot change the answer: when no SELECT policy of the table can read them
  // (claims_free), the groups of one role share the first one's answer. A policy may read them only through a
  // function: claims_free holds when the policies' expression trees are made of plain nodes (no subquery, no domain,
  // no I/O cast) whose functions are all pg_catalog's and immutable (or the clock's: a stable built-in may read a
  // setting, as current_setting does, or run SQL, as query_to_xml and ts_stat do), and the key's types are built in
  // (their casts run in the lookup). Decided in the check's own snapshot, from the catalog the lookup itself uses, so a policy
  // changed a moment ago is never judged by its old text.
  `CREATE OR REPLACE FUNCTION realtime.stratum_visible_rows(entity regclass, key_columns text[], keys jsonb, checks jsonb, check_rows boolean, xids bigint[])
     RETURNS TABLE (check_index integer, selectable text[], visible integer[]) LANGUAGE plpgsql VOLATILE AS $$
     DECLARE
       item record;
       rls boolean;
       lookup text;
       every_row integer[];
       role_taken text;
       role_columns text[];
       parameter_type text;
       statement_name text;
       argument text;
       claims_free boolean := false;
       shared_role text;
       shared_visible integer[];
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
       every_row := ARRAY(SELECT pg_catalog.generate_series(0, pg_catalog.jsonb_array_length(keys) - 1));
       IF rls AND check_rows THEN
         claims_free := NOT EXISTS (
             SELECT 1 FROM pg_catalog.pg_policy p
              CROSS JOIN LATERAL (SELECT COALESCE(p.polqual::text, '') || ' ' || COALESCE(p.polwithcheck::text, '') AS tree) AS t
              WHERE p.polrelid = entity AND p.polcmd IN ('r', '*')
                AND (EXISTS (SELECT 1 FROM pg_catalog.regexp_matches(t.tree, '[{]([A-Z_]+)', 'g') AS node(name)
                              WHERE node.name[1] <> ALL (ARRAY['OPEXPR', 'FUNCEXPR', 'VAR', 'CONST', 'BOOLEXPR', 'NULLTEST',
                                                               'BOOLEANTEST', 'SCALARARRAYOPEXPR', 'RELABELTYPE', 'SQLVALUEFUNCTION',
                                                               'CASEEXPR', 'CASEWHEN', 'CASETESTEXPR', 'COALESCEEXPR',
                                                               'DISTINCTEXPR', 'NULLIFEXPR', 'ARRAYEXPR']))
                  OR EXISTS (SELECT 1 FROM pg_catalog.regexp_matches(t.tree, ':(?:funcid|opfuncid|hashfuncid|negfuncid) ([0-9]+)', 'g') AS fn(id)
                              WHERE fn.id[1] <> '0'
                                AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_proc pr
                                                 WHERE pr.oid = fn.id[1]::oid AND pr.pronamespace = 'pg_catalog'::regnamespace
                                                   AND (pr.provolatile = 'i'
                                                        OR pr.proname = ANY (ARRAY['now', 'statement_timestamp', 'transaction_timestamp', 'clock_timestamp']))))))
           AND NOT EXISTS (SELECT 1 FROM pg_catalog.unnest(key_columns) AS kc(name)
                             LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = entity AND a.attname = kc.name AND NOT a.attisdropped
                             LEFT JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
                            WHERE ty.typnamespace IS DISTINCT FROM 'pg_catalog'::regnamespace);
       END IF;
       -- The lookup is a prepared statement of the session, named by its text (the table's qualified name, its key
       -- columns and types: a rename or another key makes another), run with a generic plan: parsed and planned once,
       -- and planned again only when the role changes (the plan cache re-applies row security then) or the table does,
       -- not once per group; the claims are read when it runs. Privileges are checked each time it runs.
       IF pg_catalog.cardinality(key_columns) = 1 THEN
         -- $1: the keys as text, cast once to the column's type (without its typmod: a cast to one can cut a value).
         SELECT pg_catalog.format('SELECT COALESCE(pg_catalog.array_agg((k.i - 1)::integer), ''{}'')
                                     FROM pg_catalog.unnest($1::text[]::%1$s[]) WITH ORDINALITY AS k(v, i)
                                    WHERE k.v IN (SELECT t.%2$I FROM %3$I.%4$I t WHERE t.%2$I = ANY ($1::text[]::%1$s[]))',
                                  pg_catalog.format_type(a.atttypid, NULL), a.attname, n.nspname, c.relname)
           INTO lookup
           FROM pg_catalog.pg_attribute a
           JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
           JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
          WHERE a.attrelid = entity AND a.attname = key_columns[1] AND a.attnum > 0 AND NOT a.attisdropped;
         argument := ARRAY(SELECT k.v ->> 0 FROM pg_catalog.jsonb_array_elements(keys) WITH ORDINALITY AS k(v, i) ORDER BY k.i)::text;
         parameter_type := 'text[]';
       ELSE
         -- $1: the keys as jsonb arrays, one EXISTS per row.
         SELECT pg_catalog.format('SELECT COALESCE(pg_catalog.array_agg((k.i - 1)::integer), ''{}'')
                                     FROM pg_catalog.jsonb_array_elements($1) WITH ORDINALITY AS k(v, i)
                                    WHERE EXISTS (SELECT 1 FROM %I.%I t WHERE %s)', n.nspname, c.relname,
                                  pg_catalog.string_agg(pg_catalog.format('t.%I = (k.v ->> %s)::%s', a.attname, kc.ord - 1,
                                                                          pg_catalog.format_type(a.atttypid, a.atttypmod)), ' AND '))
           INTO lookup
           FROM pg_catalog.unnest(key_columns) WITH ORDINALITY AS kc(name, ord)
           JOIN pg_catalog.pg_attribute a ON a.attrelid = entity AND a.attname = kc.name
           JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
           JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
          GROUP BY n.nspname, c.relname
         HAVING pg_catalog.count(*) = pg_catalog.cardinality(key_columns);
         argument := keys::text;
         parameter_type := 'jsonb';
       END IF;
       IF lookup IS NOT NULL AND check_rows AND rls THEN
         statement_name := 'stratum_realtime_' || pg_catalog.md5(parameter_type || ' ' || lookup);
         IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_prepared_statements p WHERE p.name = statement_name) THEN
           BEGIN
             EXECUTE pg_catalog.format('PREPARE %I(%s) AS %s', statement_name, parameter_type, lookup);
           EXCEPTION WHEN OTHERS THEN
             -- A lookup that cannot be made: no group sees the rows.
             statement_name := NULL;
           END;
         END IF;
         PERFORM pg_catalog.set_config('plan_cache_mode', 'force_generic_plan', true);
       END IF;
       FOR item IN SELECT (e.i - 1)::integer AS position, e.v ->> 'role' AS role, e.v ->> 'claims' AS claims
                     FROM pg_catalog.jsonb_array_elements(checks) WITH ORDINALITY AS e(v, i)
                    ORDER BY e.v ->> 'role', e.i LOOP
         check_index := item.position;
         BEGIN
           -- The role and its columns stay from the group before when it had the same role.
           IF role_taken IS DISTINCT FROM item.role THEN
             role_taken := NULL;
             PERFORM pg_catalog.set_config('role', item.role, true);
             role_columns := ARRAY(SELECT a.attname::text FROM pg_catalog.pg_attribute a
                                    WHERE a.attrelid = entity AND a.attnum > 0 AND NOT a.attisdropped
                                      AND pg_catalog.has_column_privilege(entity, a.attnum, 'SELECT') ORDER BY a.attnum);
             role_taken := item.role;
           END IF;
           selectable := role_columns;
           IF claims_free AND shared_role = item.role AND role_taken = item.role THEN
             visible := shared_visible;
           ELSE
             PERFORM pg_catalog.set_config('request.jwt.claims', item.claims, true);
             PERFORM pg_catalog.set_config('request.jwt.claim.sub', COALESCE(item.claims::jsonb ->> 'sub', ''), true);
             PERFORM pg_catalog.set_config('request.jwt.claim.role', item.role, true);
             IF lookup IS NULL OR NOT (key_columns <@ selectable) THEN
               visible := '{}';
             ELSIF NOT check_rows OR NOT rls THEN
               visible := every_row;
             ELSIF statement_name IS NULL THEN
               visible := '{}';
             ELSE
               EXECUTE pg_catalog.format('EXECUTE %I(%L)', statement_name, argument) INTO visible;
             END IF;
             shared_role := item.role;
             shared_visible := visible;
           END IF;
         EXCEPTION WHEN OTHERS THEN
           shared_role := NULL;
           -- A role the session cannot take, a policy that fails: nothing for this group. The settings the group made
           -- went with its subtransaction, so the next group takes its role again.
           role_taken := NULL;
           selectable := '{}';
           visible := '{}';
         END;
         RETURN NEXT;
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
