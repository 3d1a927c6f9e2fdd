import { useMutation } from '@tanstack/react-query'
import { runEditorSql } from '../table-editor/runEditorSql'
import { revealVaultSecretSql } from './vaultSql'

/** A secret's decrypted value, read from vault.decrypted_secrets on the full connection (never cached). */
export async function revealVaultSecret({ ref, id }: { ref: string; id: string }): Promise<string> {
  const [result] = await runEditorSql(ref, revealVaultSecretSql(id), { write: true })
  const row = result?.rows[0] as { decrypted_secret: string | null } | undefined
  if (!row) throw new Error('This secret no longer exists')
  return row.decrypted_secret ?? ''
}

export function useRevealVaultSecret() {
  return useMutation({ mutationFn: revealVaultSecret })
}
