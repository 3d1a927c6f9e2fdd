/** Placeholder while the page is written. */
export function DatabaseTriggersPage() {
  return null
}
