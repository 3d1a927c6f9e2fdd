/**
 * Pure SQL logic shared by the platform and the dashboard (statement splitting, safety checks,
 * destructive patterns, auto-limit, named parameters). The SQL editor issue fills it; the
 * foundation only sets up the package so that both sides already import it from one place.
 */
export const SQL_PACKAGE_VERSION = 1
