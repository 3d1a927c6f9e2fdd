/** Placeholder while the page is written. */
export function DatabasePoliciesPage() {
  return null
}
