import type { PgMetaPublication } from '@stratum/contracts'
import { catalogRows, pageClause, pageParams, type PageOptions } from './pg-meta-list.js'
import type { Queryable } from './queryable.js'

/**
 * Publications as `GET /platform/pg-meta/{ref}/publications` answers them: the events each publishes and the
 * tables added to it by name (null for FOR ALL TABLES; a schema added with FOR TABLES IN SCHEMA is not listed).
 */
const PUBLICATIONS_SQL = `
SELECT p.oid::int8 AS id, p.pubname AS name, p.pubowner::pg_catalog.regrole::text AS owner,
  p.pubinsert AS publish_insert, p.pubupdate AS publish_update, p.pubdelete AS publish_delete, p.pubtruncate AS publish_truncate,
  CASE WHEN NOT p.puballtables THEN COALESCE((
    SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('id', c.oid::int8, 'name', c.relname, 'schema', n.nspname) ORDER BY n.nspname, c.relname)
    FROM pg_catalog.pg_publication_rel pr
    JOIN pg_catalog.pg_class c ON c.oid = pr.prrelid
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE pr.prpubid = p.oid), '[]'::jsonb) END AS tables
FROM pg_catalog.pg_publication p
ORDER BY p.pubname
${pageClause(1)}`

export function listPgMetaPublications(db: Queryable, options: PageOptions = {}): Promise<PgMetaPublication[]> {
  return catalogRows<PgMetaPublication>(db, PUBLICATIONS_SQL, pageParams(options))
}
