/** Placeholder while the page is written. */
export function PublicationsPage() {
  return null
}
