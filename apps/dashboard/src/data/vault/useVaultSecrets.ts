import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { readCatalog } from '../table-editor/runEditorSql'
import { vaultKeys } from './keys'
import { LIST_VAULT_SECRETS, type VaultSecret } from './vaultSql'

/** The project's Vault secrets, newest first, without their values (read-only connection). */
export const vaultSecretsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: vaultKeys.secrets(ref ?? ''),
    queryFn: ref ? ({ signal }) => readCatalog<VaultSecret[]>(ref, LIST_VAULT_SECRETS, signal) : skipToken,
  })

export function useVaultSecrets(ref: string | undefined) {
  return useQuery(vaultSecretsQuery(ref))
}
