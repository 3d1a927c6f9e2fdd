/** Placeholder while the page is written. */
export function DatabaseFunctionsPage() {
  return null
}
