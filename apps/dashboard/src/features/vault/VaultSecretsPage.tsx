/** Placeholder while the page is written. */
export function VaultSecretsPage() {
  return null
}
