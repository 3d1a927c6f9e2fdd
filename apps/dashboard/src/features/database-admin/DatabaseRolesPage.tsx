/** Placeholder while the page is written. */
export function DatabaseRolesPage() {
  return null
}
