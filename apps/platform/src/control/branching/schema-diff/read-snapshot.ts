import { SNAPSHOT_FORMAT, type CatalogSnapshot } from './snapshot.js'

/**
 * Reads a project database's catalog snapshot (snapshot.ts). The caller's session must have its
 * search_path pinned to `pg_catalog, pg_temp` (the platform superuser's sessions always do; the merge's
 * session as `postgres` sets it locally): definitions then name every object with its schema, and nothing
 * here resolves to a tenant's function. Catalog reads only: no tenant code runs.
 *
 * Which schemas are compared: the user's. Left out are Postgres's own (pg_catalog, information_schema,
 * pg_toast, temporary schemas) and the ones the platform or its extensions manage, whose objects the
 * platform creates and upgrades itself on every project (auth, storage, realtime and extensions, where the
 * platform keeps its event-trigger functions and extensions their objects) or that another path carries
 * (supabase_migrations: merge copies the migration history itself). Also left out: the schemas of the
 * hosted platform's extensions a project might carry (graphql, vault, cron, net...), as the advisors do.
 * One exception: policies on `storage` tables are compared, because that is where users write the
 * policies of their buckets (storage.objects is owned by `postgres` for this reason). Objects that
 * belong to an extension (pg_depend 'e') are the extension's: only the extension itself is compared.
 */
export const PLATFORM_SCHEMAS = [
  'auth', 'storage', 'realtime', 'extensions', 'supabase_migrations', 'supabase_functions', 'graphql', 'graphql_public', 'vault',
  'net', 'cron', 'pgbouncer', 'pgsodium', 'pgsodium_masks', 'pgtle', 'pgmq', 'repack', 'tiger', 'topology', 'information_schema',
]
/** Schemas whose policies are compared although their other objects are not. */
const POLICY_SCHEMAS = ['storage']

/** A query's rows; a pg.Client or pool satisfies it. */
export interface CatalogReader {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>
}

const userSchema = (column: string) => `(${column} <> ALL ($1::text[]) AND ${column} NOT LIKE 'pg\\_%')`
const notFromExtension = (catalog: string, oid: string) =>
  `NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend e WHERE e.classid = 'pg_catalog.${catalog}'::pg_catalog.regclass AND e.objid = ${oid} AND e.deptype = 'e')`
/** Sequences made for identity columns belong to their column. */
const notIdentitySequence = (oid: string) =>
  `NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend i WHERE i.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND i.objid = ${oid} AND i.deptype = 'i')`

const RELATION = `pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace`
const USER_RELATION = `${userSchema('n.nspname')} AND ${notFromExtension('pg_class', 'c.oid')}`

/**
 * Compared objects by catalog row (classid, objid, subid: a column's number, else 0), as references (kind and
 * names, snapshot.ts's ObjectRef), with their owner. Rows marked `via` stand for the object that holds them (a
 * view's rewrite rule, a column default, a relation's row type, a domain's constraint): what depends on them
 * depends on that object; comments and owners skip them.
 */
const OBJECTS = `objects (classid, objid, subid, kind, names, owner, via) AS (
    SELECT 'pg_catalog.pg_namespace'::pg_catalog.regclass, n.oid, 0, 'schema', ARRAY[n.nspname::text], n.nspowner, false
    FROM pg_catalog.pg_namespace n WHERE ${userSchema('n.nspname')} AND ${notFromExtension('pg_namespace', 'n.oid')}
    UNION ALL
    SELECT 'pg_catalog.pg_class'::pg_catalog.regclass, c.oid, 0,
      CASE c.relkind WHEN 'v' THEN 'view' WHEN 'm' THEN 'matview' WHEN 'S' THEN 'sequence' WHEN 'i' THEN 'index' WHEN 'I' THEN 'index' ELSE 'table' END,
      ARRAY[n.nspname::text, c.relname::text], c.relowner, false
    FROM ${RELATION} WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'i', 'I') AND ${USER_RELATION}
    UNION ALL
    SELECT 'pg_catalog.pg_class'::pg_catalog.regclass, c.oid, a.attnum, 'column', ARRAY[n.nspname::text, c.relname::text, a.attname::text], NULL::oid, false
    FROM pg_catalog.pg_attribute a JOIN ${RELATION} ON c.oid = a.attrelid
    WHERE c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped AND ${USER_RELATION}
    UNION ALL
    SELECT 'pg_catalog.pg_rewrite'::pg_catalog.regclass, w.oid, 0, CASE c.relkind WHEN 'm' THEN 'matview' ELSE 'view' END,
      ARRAY[n.nspname::text, c.relname::text], NULL::oid, true
    FROM pg_catalog.pg_rewrite w JOIN ${RELATION} ON c.oid = w.ev_class WHERE c.relkind IN ('v', 'm') AND ${USER_RELATION}
    UNION ALL
    SELECT 'pg_catalog.pg_attrdef'::pg_catalog.regclass, d.oid, 0, 'table', ARRAY[n.nspname::text, c.relname::text], NULL::oid, true
    FROM pg_catalog.pg_attrdef d JOIN ${RELATION} ON c.oid = d.adrelid WHERE ${USER_RELATION}
    UNION ALL
    SELECT 'pg_catalog.pg_type'::pg_catalog.regclass, t.oid, 0, CASE c.relkind WHEN 'v' THEN 'view' WHEN 'm' THEN 'matview' ELSE 'table' END,
      ARRAY[n.nspname::text, c.relname::text], NULL::oid, true
    FROM pg_catalog.pg_type t JOIN ${RELATION} ON c.oid = t.typrelid WHERE c.relkind IN ('r', 'p', 'v', 'm') AND ${USER_RELATION}
    UNION ALL
    SELECT 'pg_catalog.pg_proc'::pg_catalog.regclass, p.oid, 0, CASE p.prokind WHEN 'p' THEN 'procedure' ELSE 'function' END,
      ARRAY[n.nspname::text, p.proname::text, pg_catalog.pg_get_function_identity_arguments(p.oid)], p.proowner, false
    FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
    WHERE p.prokind IN ('f', 'p', 'w') AND ${userSchema('n.nspname')} AND ${notFromExtension('pg_proc', 'p.oid')}
    UNION ALL
    SELECT 'pg_catalog.pg_type'::pg_catalog.regclass, t.oid, 0, CASE t.typtype WHEN 'e' THEN 'enum' ELSE 'domain' END,
      ARRAY[n.nspname::text, t.typname::text], t.typowner, false
    FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
    WHERE t.typtype IN ('e', 'd') AND ${userSchema('n.nspname')} AND ${notFromExtension('pg_type', 't.oid')}
    UNION ALL
    SELECT 'pg_catalog.pg_constraint'::pg_catalog.regclass, k.oid, 0, 'constraint', ARRAY[n.nspname::text, c.relname::text, k.conname::text], NULL::oid, false
    FROM pg_catalog.pg_constraint k JOIN ${RELATION} ON c.oid = k.conrelid
    WHERE k.contype IN ('p', 'u', 'c', 'f', 'x') AND c.relkind IN ('r', 'p') AND ${USER_RELATION}
    UNION ALL
    SELECT 'pg_catalog.pg_constraint'::pg_catalog.regclass, k.oid, 0, 'domain', ARRAY[n.nspname::text, t.typname::text], NULL::oid, true
    FROM pg_catalog.pg_constraint k JOIN pg_catalog.pg_type t ON t.oid = k.contypid JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
    WHERE ${userSchema('n.nspname')}
    UNION ALL
    SELECT 'pg_catalog.pg_trigger'::pg_catalog.regclass, g.oid, 0, 'trigger', ARRAY[n.nspname::text, c.relname::text, g.tgname::text], NULL::oid, false
    FROM pg_catalog.pg_trigger g JOIN ${RELATION} ON c.oid = g.tgrelid WHERE NOT g.tgisinternal AND ${USER_RELATION}
    UNION ALL
    SELECT 'pg_catalog.pg_policy'::pg_catalog.regclass, p.oid, 0, 'policy', ARRAY[n.nspname::text, c.relname::text, p.polname::text], NULL::oid, false
    FROM pg_catalog.pg_policy p JOIN ${RELATION} ON c.oid = p.polrelid
    WHERE (${userSchema('n.nspname')} OR n.nspname = ANY ($2::text[])) AND ${notFromExtension('pg_class', 'c.oid')}
  )`

/** Objects installed by the platform or an extension are never the tenant's: only those made after initdb, outside extensions. */
const userMade = (catalog: string, oid: string) => `${oid} >= 16384 AND ${notFromExtension(catalog, oid)}`

/**
 * User objects of kinds the comparer does not write (classid, objid, digest of their definition): operators,
 * aggregates, composite, range and base types, collations, casts, operator classes and families, text search
 * objects, conversions, statistics objects, rules, foreign tables and servers, event triggers, languages.
 * Names and types inside digests are written with the pinned search_path, so schema-qualified.
 */
const OTHER_OBJECTS = [
  `SELECT 'pg_catalog.pg_operator'::pg_catalog.regclass AS classid, o.oid AS objid, pg_catalog.md5(pg_catalog.concat_ws(' ', o.oprkind, o.oprleft::pg_catalog.regtype,
      o.oprright::pg_catalog.regtype, o.oprresult::pg_catalog.regtype, o.oprcode::pg_catalog.regprocedure, o.oprcom::pg_catalog.regoperator,
      o.oprnegate::pg_catalog.regoperator, o.oprrest::pg_catalog.regproc, o.oprjoin::pg_catalog.regproc, o.oprcanmerge, o.oprcanhash)) AS digest
    FROM pg_catalog.pg_operator o JOIN pg_catalog.pg_namespace n ON n.oid = o.oprnamespace
    WHERE ${userSchema('n.nspname')} AND ${notFromExtension('pg_operator', 'o.oid')}`,
  `SELECT 'pg_catalog.pg_proc'::pg_catalog.regclass, p.oid, pg_catalog.md5(pg_catalog.concat_ws(' ', pg_catalog.pg_get_function_arguments(p.oid),
      pg_catalog.pg_get_function_result(p.oid), a.aggkind, a.aggtransfn::pg_catalog.regprocedure, a.aggfinalfn::pg_catalog.regprocedure,
      a.aggcombinefn::pg_catalog.regprocedure, a.aggtranstype::pg_catalog.regtype, a.agginitval))
    FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_aggregate a ON a.aggfnoid = p.oid JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
    WHERE ${userSchema('n.nspname')} AND ${notFromExtension('pg_proc', 'p.oid')}`,
  `SELECT 'pg_catalog.pg_type'::pg_catalog.regclass, t.oid, pg_catalog.md5(pg_catalog.concat_ws(' ', t.typtype,
      (SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname) || ' ' || pg_catalog.format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
       FROM pg_catalog.pg_attribute a WHERE a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped),
      (SELECT pg_catalog.concat_ws(' ', r.rngsubtype::pg_catalog.regtype, r.rngsubdiff::pg_catalog.regproc, r.rngcanonical::pg_catalog.regproc)
       FROM pg_catalog.pg_range r WHERE r.rngtypid = t.oid), t.typinput::pg_catalog.regproc, t.typoutput::pg_catalog.regproc))
    FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
    WHERE ${userSchema('n.nspname')} AND ${notFromExtension('pg_type', 't.oid')}
      AND (t.typtype IN ('r', 'b') OR (t.typtype = 'c' AND (SELECT c.relkind FROM pg_catalog.pg_class c WHERE c.oid = t.typrelid) = 'c'))
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_type e WHERE e.typarray = t.oid)`,
  `SELECT 'pg_catalog.pg_collation'::pg_catalog.regclass, c.oid, pg_catalog.md5(pg_catalog.concat_ws(' ', c.collprovider, c.collisdeterministic, c.collcollate, c.collctype))
    FROM pg_catalog.pg_collation c JOIN pg_catalog.pg_namespace n ON n.oid = c.collnamespace
    WHERE ${userSchema('n.nspname')} AND ${notFromExtension('pg_collation', 'c.oid')}`,
  `SELECT 'pg_catalog.pg_cast'::pg_catalog.regclass, c.oid, pg_catalog.md5(pg_catalog.concat_ws(' ', c.castfunc::pg_catalog.regprocedure, c.castcontext, c.castmethod))
    FROM pg_catalog.pg_cast c WHERE ${userMade('pg_cast', 'c.oid')}`,
  ...(
    [
      ['pg_opclass', 'opcnamespace'],
      ['pg_opfamily', 'opfnamespace'],
      ['pg_ts_config', 'cfgnamespace'],
      ['pg_ts_dict', 'dictnamespace'],
      ['pg_ts_parser', 'prsnamespace'],
      ['pg_ts_template', 'tmplnamespace'],
      ['pg_conversion', 'connamespace'],
    ] as const
  ).map(
    ([catalog, namespace]) => `SELECT 'pg_catalog.${catalog}'::pg_catalog.regclass, x.oid, ''
    FROM pg_catalog.${catalog} x JOIN pg_catalog.pg_namespace n ON n.oid = x.${namespace}
    WHERE ${userSchema('n.nspname')} AND ${notFromExtension(catalog, 'x.oid')}`,
  ),
  `SELECT 'pg_catalog.pg_statistic_ext'::pg_catalog.regclass, x.oid, pg_catalog.md5(pg_catalog.pg_get_statisticsobjdef(x.oid))
    FROM pg_catalog.pg_statistic_ext x JOIN pg_catalog.pg_namespace n ON n.oid = x.stxnamespace WHERE ${userSchema('n.nspname')}`,
  `SELECT 'pg_catalog.pg_rewrite'::pg_catalog.regclass, w.oid, pg_catalog.md5(pg_catalog.pg_get_ruledef(w.oid))
    FROM pg_catalog.pg_rewrite w JOIN ${RELATION} ON c.oid = w.ev_class WHERE w.rulename <> '_RETURN' AND ${USER_RELATION}`,
  `SELECT 'pg_catalog.pg_class'::pg_catalog.regclass, c.oid, ''
    FROM ${RELATION} WHERE c.relkind = 'f' AND ${USER_RELATION}`,
  `SELECT 'pg_catalog.pg_foreign_server'::pg_catalog.regclass, x.oid, pg_catalog.md5(pg_catalog.concat_ws(' ', x.srvtype, x.srvversion, x.srvoptions::text))
    FROM pg_catalog.pg_foreign_server x WHERE ${userMade('pg_foreign_server', 'x.oid')}`,
  `SELECT 'pg_catalog.pg_event_trigger'::pg_catalog.regclass, x.oid, pg_catalog.md5(pg_catalog.concat_ws(' ', x.evtevent, x.evtfoid::pg_catalog.regprocedure, x.evtenabled, x.evttags::text))
    FROM pg_catalog.pg_event_trigger x WHERE ${userMade('pg_event_trigger', 'x.oid')}`,
  `SELECT 'pg_catalog.pg_language'::pg_catalog.regclass, x.oid, ''
    FROM pg_catalog.pg_language x WHERE ${userMade('pg_language', 'x.oid')}`,
].join('\n    UNION ALL\n    ')

const QUERIES = {
  schemas: `SELECT n.nspname::text AS name FROM pg_catalog.pg_namespace n
    WHERE ${userSchema('n.nspname')} AND ${notFromExtension('pg_namespace', 'n.oid')} ORDER BY 1`,
  extensions: `SELECT x.extname::text AS name, n.nspname::text AS schema, x.extversion AS version
    FROM pg_catalog.pg_extension x JOIN pg_catalog.pg_namespace n ON n.oid = x.extnamespace WHERE x.extname <> 'plpgsql' ORDER BY 1`,
  enums: `SELECT n.nspname::text AS schema, t.typname::text AS name,
      ARRAY(SELECT v.enumlabel::text FROM pg_catalog.pg_enum v WHERE v.enumtypid = t.oid ORDER BY v.enumsortorder) AS values
    FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
    WHERE t.typtype = 'e' AND ${userSchema('n.nspname')} AND ${notFromExtension('pg_type', 't.oid')} ORDER BY 1, 2`,
  sequences: `SELECT n.nspname::text AS schema, c.relname::text AS name, pg_catalog.format_type(s.seqtypid, NULL) AS type,
      s.seqstart::text AS start, s.seqincrement::text AS increment, s.seqmin::text AS min, s.seqmax::text AS max,
      s.seqcache::text AS cache, s.seqcycle AS cycle,
      (SELECT pg_catalog.jsonb_build_object('schema', tn.nspname::text, 'table', tc.relname::text, 'column', a.attname::text)
       FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_class tc ON tc.oid = d.refobjid
         JOIN pg_catalog.pg_namespace tn ON tn.oid = tc.relnamespace
         JOIN pg_catalog.pg_attribute a ON a.attrelid = tc.oid AND a.attnum = d.refobjsubid
       WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.objid = c.oid
         AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.deptype = 'a' LIMIT 1) AS "ownedBy"
    FROM pg_catalog.pg_sequence s JOIN ${RELATION} ON c.oid = s.seqrelid
    WHERE ${USER_RELATION} AND ${notIdentitySequence('c.oid')} ORDER BY 1, 2`,
  tables: `SELECT n.nspname::text AS schema, c.relname::text AS name, c.relkind::text AS kind, c.relpersistence::text AS persistence,
      c.relrowsecurity AS rls, c.relforcerowsecurity AS "forceRls",
      CASE WHEN c.relkind = 'p' THEN pg_catalog.pg_get_partkeydef(c.oid) END AS "partitionKey",
      (SELECT pg_catalog.jsonb_build_object('schema', pn.nspname::text, 'name', pc.relname::text)
       FROM pg_catalog.pg_inherits h JOIN pg_catalog.pg_class pc ON pc.oid = h.inhparent
         JOIN pg_catalog.pg_namespace pn ON pn.oid = pc.relnamespace
       WHERE h.inhrelid = c.oid AND c.relispartition) AS "partitionOf",
      CASE WHEN c.relispartition THEN pg_catalog.pg_get_expr(c.relpartbound, c.oid) END AS "partitionBound"
    FROM ${RELATION} WHERE c.relkind IN ('r', 'p') AND ${USER_RELATION} ORDER BY 1, 2`,
  columns: `SELECT n.nspname::text AS schema, c.relname::text AS table, a.attname::text AS name, a.attnum::int AS position,
      pg_catalog.format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS "notNull",
      CASE WHEN a.attgenerated = '' THEN pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) END AS default,
      CASE WHEN a.attgenerated <> '' THEN pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) END AS generated,
      a.attidentity::text AS identity,
      CASE WHEN a.attcollation <> 0 AND a.attcollation <> t.typcollation THEN
        (SELECT pg_catalog.format('%I.%I', cn.nspname, co.collname) FROM pg_catalog.pg_collation co
         JOIN pg_catalog.pg_namespace cn ON cn.oid = co.collnamespace WHERE co.oid = a.attcollation) END AS collation
    FROM pg_catalog.pg_attribute a JOIN ${RELATION} ON c.oid = a.attrelid JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
      LEFT JOIN pg_catalog.pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
    WHERE c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped AND a.attislocal AND ${USER_RELATION}
    ORDER BY 1, 2, 4`,
  constraints: `SELECT n.nspname::text AS schema, c.relname::text AS table, k.conname::text AS name, k.contype::text AS type,
      pg_catalog.pg_get_constraintdef(k.oid) AS definition
    FROM pg_catalog.pg_constraint k JOIN ${RELATION} ON c.oid = k.conrelid
    WHERE k.contype IN ('p', 'u', 'c', 'f', 'x') AND k.conislocal AND k.conparentid = 0 AND c.relkind IN ('r', 'p')
      AND ${USER_RELATION} ORDER BY 1, 2, 3`,
  indexes: `SELECT n.nspname::text AS schema, c.relname::text AS table, ic.relname::text AS name,
      pg_catalog.pg_get_indexdef(x.indexrelid) AS definition, c.relkind = 'm' AS "onView"
    FROM pg_catalog.pg_index x JOIN pg_catalog.pg_class ic ON ic.oid = x.indexrelid JOIN ${RELATION} ON c.oid = x.indrelid
    WHERE c.relkind IN ('r', 'p', 'm') AND NOT ic.relispartition AND ${USER_RELATION}
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k WHERE k.conindid = x.indexrelid AND k.conrelid = x.indrelid AND k.contype IN ('p', 'u', 'x'))
    ORDER BY 1, 3`,
  views: `SELECT n.nspname::text AS schema, c.relname::text AS name, c.relkind = 'm' AS materialized,
      pg_catalog.pg_get_viewdef(c.oid) AS definition, COALESCE(c.reloptions, '{}')::text[] AS options, c.oid::int8 AS order
    FROM ${RELATION} WHERE c.relkind IN ('v', 'm') AND ${USER_RELATION} ORDER BY 1, 2`,
  functions: `SELECT n.nspname::text AS schema, p.proname::text AS name, pg_catalog.pg_get_function_identity_arguments(p.oid) AS args,
      p.prokind::text AS kind, pg_catalog.pg_get_function_result(p.oid) AS returns, pg_catalog.pg_get_functiondef(p.oid) AS definition,
      (p.prosqlbody IS NOT NULL OR EXISTS (
        SELECT 1 FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_type ty ON ty.oid = d.refobjid
        WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = p.oid
          AND d.refclassid = 'pg_catalog.pg_type'::pg_catalog.regclass AND ty.typrelid <> 0)) AS "needsRelations",
      p.oid::int8 AS order
    FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
    WHERE p.prokind IN ('f', 'p', 'w') AND ${userSchema('n.nspname')} AND ${notFromExtension('pg_proc', 'p.oid')} ORDER BY 1, 2, 3`,
  triggers: `SELECT n.nspname::text AS schema, c.relname::text AS table, g.tgname::text AS name,
      pg_catalog.pg_get_triggerdef(g.oid) AS definition, g.tgenabled::text AS enabled
    FROM pg_catalog.pg_trigger g JOIN ${RELATION} ON c.oid = g.tgrelid
    WHERE NOT g.tgisinternal AND g.tgparentid = 0 AND ${USER_RELATION} ORDER BY 1, 2, 3`,
  policies: `SELECT n.nspname::text AS schema, c.relname::text AS table, p.polname::text AS name, p.polpermissive AS permissive,
      p.polcmd::text AS command,
      ARRAY(SELECT r.rolname::text FROM pg_catalog.unnest(p.polroles) AS u(oid) LEFT JOIN pg_catalog.pg_roles r ON r.oid = u.oid
            ORDER BY r.rolname NULLS FIRST) AS roles,
      pg_catalog.pg_get_expr(p.polqual, p.polrelid) AS using, pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid) AS check
    FROM pg_catalog.pg_policy p JOIN ${RELATION} ON c.oid = p.polrelid
    WHERE (${userSchema('n.nspname')} OR n.nspname = ANY ($2::text[])) AND ${notFromExtension('pg_class', 'c.oid')} ORDER BY 1, 2, 3`,
  grants: `SELECT n.nspname::text AS schema, c.relname::text AS table, c.relkind::text AS kind, r.rolname::text AS grantee,
      ARRAY(SELECT DISTINCT g.privilege_type || CASE WHEN g.is_grantable THEN '*' ELSE '' END
            FROM pg_catalog.aclexplode(c.relacl) g WHERE g.grantee = a.grantee ORDER BY 1) AS privileges
    FROM ${RELATION} CROSS JOIN LATERAL (SELECT DISTINCT e.grantee FROM pg_catalog.aclexplode(c.relacl) e) a
      LEFT JOIN pg_catalog.pg_roles r ON r.oid = a.grantee
    WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S') AND c.relacl IS NOT NULL AND a.grantee <> c.relowner
      AND ${USER_RELATION} AND ${notIdentitySequence('c.oid')} ORDER BY 1, 2, 4 NULLS FIRST`,
  publications: `SELECT p.pubname::text AS name, p.puballtables AS "allTables", p.pubinsert AS insert, p.pubupdate AS update,
      p.pubdelete AS delete, p.pubtruncate AS truncate FROM pg_catalog.pg_publication p ORDER BY 1`,
  publicationTables: `SELECT p.pubname::text AS publication, n.nspname::text AS schema, c.relname::text AS table
    FROM pg_catalog.pg_publication_rel pr JOIN pg_catalog.pg_publication p ON p.oid = pr.prpubid JOIN ${RELATION} ON c.oid = pr.prrelid
    WHERE ${USER_RELATION} ORDER BY 1, 2, 3`,
  defaultPrivileges: `SELECT r.rolname::text AS role, n.nspname::text AS schema, d.defaclobjtype::text AS kind, g.rolname::text AS grantee,
      ARRAY(SELECT DISTINCT x.privilege_type || CASE WHEN x.is_grantable THEN '*' ELSE '' END
            FROM pg_catalog.aclexplode(d.defaclacl) x WHERE x.grantee = a.grantee ORDER BY 1) AS privileges
    FROM pg_catalog.pg_default_acl d JOIN pg_catalog.pg_roles r ON r.oid = d.defaclrole
      LEFT JOIN pg_catalog.pg_namespace n ON n.oid = d.defaclnamespace
      CROSS JOIN LATERAL (SELECT DISTINCT e.grantee FROM pg_catalog.aclexplode(d.defaclacl) e) a
      LEFT JOIN pg_catalog.pg_roles g ON g.oid = a.grantee
    WHERE d.defaclobjtype IN ('r', 'S', 'f') ORDER BY 1, 2 NULLS FIRST, 3, 4 NULLS FIRST`,
  domains: `SELECT n.nspname::text AS schema, t.typname::text AS name, pg_catalog.format_type(t.typbasetype, t.typtypmod) AS type,
      t.typnotnull AS "notNull", t.typdefault AS default,
      CASE WHEN t.typcollation <> 0 AND t.typcollation <> b.typcollation THEN
        (SELECT pg_catalog.format('%I.%I', cn.nspname, co.collname) FROM pg_catalog.pg_collation co
         JOIN pg_catalog.pg_namespace cn ON cn.oid = co.collnamespace WHERE co.oid = t.typcollation) END AS collation,
      COALESCE((SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('name', k.conname::text, 'definition', pg_catalog.pg_get_constraintdef(k.oid)) ORDER BY k.conname)
        FROM pg_catalog.pg_constraint k WHERE k.contypid = t.oid AND k.contype = 'c'), '[]'::pg_catalog.jsonb) AS checks,
      t.oid::int8 AS order
    FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace JOIN pg_catalog.pg_type b ON b.oid = t.typbasetype
    WHERE t.typtype = 'd' AND ${userSchema('n.nspname')} AND ${notFromExtension('pg_type', 't.oid')} ORDER BY 1, 2`,
  columnGrants: `SELECT n.nspname::text AS schema, c.relname::text AS table, a.attname::text AS column, r.rolname::text AS grantee,
      ARRAY(SELECT DISTINCT g.privilege_type || CASE WHEN g.is_grantable THEN '*' ELSE '' END
            FROM pg_catalog.aclexplode(a.attacl) g WHERE g.grantee = e.grantee ORDER BY 1) AS privileges
    FROM pg_catalog.pg_attribute a JOIN ${RELATION} ON c.oid = a.attrelid
      CROSS JOIN LATERAL (SELECT DISTINCT x.grantee FROM pg_catalog.aclexplode(a.attacl) x) e
      LEFT JOIN pg_catalog.pg_roles r ON r.oid = e.grantee
    WHERE a.attacl IS NOT NULL AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'v', 'm')
      AND e.grantee <> c.relowner AND ${USER_RELATION} ORDER BY 1, 2, 3, 4 NULLS FIRST`,
  routineGrants: `SELECT n.nspname::text AS schema, p.proname::text AS name, pg_catalog.pg_get_function_identity_arguments(p.oid) AS args,
      CASE p.prokind WHEN 'p' THEN 'p' ELSE 'f' END AS kind, r.rolname::text AS grantee,
      ARRAY(SELECT DISTINCT g.privilege_type || CASE WHEN g.is_grantable THEN '*' ELSE '' END
            FROM pg_catalog.aclexplode(COALESCE(p.proacl, pg_catalog.acldefault('f', p.proowner))) g WHERE g.grantee = e.grantee ORDER BY 1) AS privileges
    FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
      CROSS JOIN LATERAL (SELECT DISTINCT x.grantee FROM pg_catalog.aclexplode(COALESCE(p.proacl, pg_catalog.acldefault('f', p.proowner))) x) e
      LEFT JOIN pg_catalog.pg_roles r ON r.oid = e.grantee
    WHERE p.prokind IN ('f', 'p', 'w') AND e.grantee <> p.proowner AND ${userSchema('n.nspname')} AND ${notFromExtension('pg_proc', 'p.oid')}
    ORDER BY 1, 2, 3, 5 NULLS FIRST`,
  comments: `WITH ${OBJECTS}
    SELECT pg_catalog.jsonb_build_object('kind', o.kind, 'names', o.names) AS target, d.description AS text
    FROM pg_catalog.pg_description d JOIN objects o ON o.classid = d.classoid AND o.objid = d.objoid AND o.subid = d.objsubid
    WHERE NOT o.via ORDER BY o.kind, o.names`,
  owners: `WITH ${OBJECTS}
    SELECT pg_catalog.jsonb_build_object('kind', o.kind, 'names', o.names) AS target, r.rolname::text AS role
    FROM objects o JOIN pg_catalog.pg_roles r ON r.oid = o.owner
    WHERE NOT o.via AND o.subid = 0 AND o.kind <> 'index' AND r.rolname <> 'postgres'
      AND NOT (o.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND EXISTS (SELECT 1 FROM pg_catalog.pg_depend s
        WHERE s.classid = o.classid AND s.objid = o.objid AND s.refclassid = o.classid AND s.deptype IN ('a', 'i')))
    ORDER BY o.kind, o.names`,
  dependencies: `WITH ${OBJECTS}
    SELECT DISTINCT pg_catalog.jsonb_build_object('kind', f.kind, 'names', f.names) AS from,
      pg_catalog.jsonb_build_object('kind', t.kind, 'names', t.names) AS to
    FROM pg_catalog.pg_depend d
      JOIN objects f ON f.classid = d.classid AND f.objid = d.objid AND f.subid = 0
      JOIN objects t ON t.classid = d.refclassid AND t.objid = d.refobjid AND t.subid = 0
    WHERE d.deptype = 'n' AND t.kind IN ('enum', 'domain', 'sequence', 'table', 'view', 'matview', 'function', 'procedure')
      AND (f.kind, f.names) IS DISTINCT FROM (t.kind, t.names)
    ORDER BY 1, 2`,
  others: `SELECT (pg_catalog.pg_identify_object(o.classid, o.objid, 0)).type AS kind,
      (pg_catalog.pg_identify_object(o.classid, o.objid, 0)).identity AS identity, o.digest
    FROM (${OTHER_OBJECTS}) o ORDER BY 1, 2`,
} satisfies Record<Exclude<keyof CatalogSnapshot, 'format'>, string>

/** Parameters each query may use: $1 the schemas left out, $2 the schemas whose policies are compared anyway. */
function parametersOf(text: string): unknown[] {
  return text.includes('$2') ? [PLATFORM_SCHEMAS, POLICY_SCHEMAS] : text.includes('$1') ? [PLATFORM_SCHEMAS] : []
}

export async function readCatalogSnapshot(reader: CatalogReader): Promise<CatalogSnapshot> {
  const snapshot = { format: SNAPSHOT_FORMAT } as Record<string, unknown>
  // One after another: the reader may be a single session (the merge's transaction).
  for (const [part, text] of Object.entries(QUERIES)) {
    snapshot[part] = (await reader.query(text, parametersOf(text))).rows.map(normalize)
  }
  return snapshot as unknown as CatalogSnapshot
}

/** int8 values (oids as creation order) arrive as text: numbers here. */
function normalize(row: unknown): unknown {
  const record = row as Record<string, unknown>
  if (typeof record.order === 'string') record.order = Number(record.order)
  return record
}
