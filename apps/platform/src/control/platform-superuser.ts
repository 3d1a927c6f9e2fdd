/** The platform's own superuser in every project instance (bootstrap-roles.ts lists the other roles). */
export const ADMIN_ROLE = 'supabase_admin'

/**
 * The search_path of every session the platform opens as its superuser (DESIGN.md "Isolation"): the
 * catalog, then temporary objects, and nothing a tenant can create in. A tenant may put an overload
 * such as `public.pg_cancel_backend(text)` in `public` or `extensions`; with the database's default
 * path an untyped argument picks it, and it would run as the superuser (the CVE-2018-1058 class).
 * Set at connect (startup packet) and as the role's own default, so no statement and no code path
 * that forgets to set it can run with another.
 */
export const PRIVILEGED_SEARCH_PATH = 'pg_catalog, pg_temp'
/** The startup option that pins it: every connection as ADMIN_ROLE carries this. */
export const PRIVILEGED_SESSION_OPTIONS = '-c search_path=pg_catalog,pg_temp'
