/** Placeholder while the page is written. */
export function DatabaseWebhooksPage() {
  return null
}
