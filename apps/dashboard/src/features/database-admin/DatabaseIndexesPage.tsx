/** Placeholder while the page is written. */
export function DatabaseIndexesPage() {
  return null
}
