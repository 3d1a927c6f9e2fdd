/** Placeholder while the page is written. */
export function EnumeratedTypesPage() {
  return null
}
