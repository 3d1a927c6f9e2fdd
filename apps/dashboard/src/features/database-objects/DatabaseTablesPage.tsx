/** Placeholder while the page is written. */
export function DatabaseTablesPage() {
  return null
}
