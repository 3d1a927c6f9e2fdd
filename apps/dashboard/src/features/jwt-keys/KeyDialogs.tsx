import { ArrowRight } from 'lucide-react'
import { Button } from '../../components/ui/Button'
import { CopyButton } from '../../components/ui/CopyButton'
import { Dialog } from '../../components/ui/Dialog'
import { TypedConfirmationDialog } from '../../components/ui/TypedConfirmationDialog'
import { StatusBadge } from './SigningKeysTable'
import { isLegacy, shortId, type SigningKey } from './texts'

const describe = (key: SigningKey) => (isLegacy(key) ? 'legacy JWT secret' : `${key.algorithm} key ${shortId(key)}`)

interface ConfirmProps {
  signingKey: SigningKey | null
  pending: boolean
  onClose: () => void
  onConfirm: (key: SigningKey) => void
}

/** Keeps a dialog open while its change runs (Escape and outside clicks wait for the answer). */
const closer = (pending: boolean, onClose: () => void) => (open: boolean) => (pending || open ? undefined : onClose())

/**
 * Rotation: `next` (a standby key, or the legacy secret put back) signs new access tokens; the key in use until now
 * becomes previously used, so the tokens it signed keep verifying until they expire.
 */
export function RotateDialog({ signingKey: next, current, pending, onClose, onConfirm }: ConfirmProps & { current: SigningKey | undefined }) {
  return (
    <Dialog
      open={next !== null}
      onOpenChange={closer(pending, onClose)}
      title={next && isLegacy(next) ? 'Use the legacy JWT secret again' : 'Rotate signing keys'}
      description="Changes the key the auth service signs new access tokens with. Tokens issued before stay valid until they expire: the previous key keeps verifying them."
      footer={
        <>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button variant="primary" loading={pending} onClick={() => next && onConfirm(next)}>
            {next && isLegacy(next) ? 'Use legacy secret' : 'Rotate keys'}
          </Button>
        </>
      }
    >
      {next ? (
        <ul className="jwt-rotation" aria-label="What changes">
          <li>
            <StatusBadge status={next.status} />
            <span className="jwt-rotation-key">{describe(next)}</span>
            <ArrowRight size={14} aria-label="becomes" />
            <StatusBadge status="in_use" />
          </li>
          {current ? (
            <li>
              <StatusBadge status="in_use" />
              <span className="jwt-rotation-key">{describe(current)}</span>
              <ArrowRight size={14} aria-label="becomes" />
              <StatusBadge status="previously_used" />
            </li>
          ) : null}
        </ul>
      ) : null}
      {next && !isLegacy(next) ? (
        <p className="muted jwt-dialog-note">
          Verifiers that check tokens themselves must know the new public key first. It has been in the JWKS since it was created; answers are
          cached for up to 10 minutes, so a key created just now may need a few minutes before every verifier has it.
        </p>
      ) : null}
    </Dialog>
  )
}

/** Revoking stops a key verifying anything: tokens it signed are refused at once. It cannot be undone. */
export function RevokeDialog({ signingKey: key, pending, onClose, onConfirm }: ConfirmProps) {
  return (
    <TypedConfirmationDialog
      open={key !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Revoke ${key ? describe(key) : 'key'}`}
      description="Access tokens signed with this key are refused from now on, and it leaves the JWKS. Signed-in users get new tokens from the current key when their session refreshes. A revoked key cannot be used again."
      confirmString="revoke"
      confirmButton="Revoke key"
      variant="danger"
      loading={pending}
      onConfirm={() => key && onConfirm(key)}
    />
  )
}

/** A revoked key verifies nothing already; deleting removes its record. */
export function DeleteDialog({ signingKey: key, pending, onClose, onConfirm }: ConfirmProps) {
  return (
    <Dialog
      open={key !== null}
      onOpenChange={closer(pending, onClose)}
      size="sm"
      title={`Delete revoked key ${key ? shortId(key) : ''}?`}
      description="The key already verifies nothing; this removes it from the list for good. This cannot be undone."
      footer={
        <>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button variant="danger" loading={pending} onClick={() => key && onConfirm(key)}>
            Delete key
          </Button>
        </>
      }
    />
  )
}

/** A key's public half as JSON, the form it has in the JWKS. */
export function PublicJwkDialog({ signingKey: key, onClose }: { signingKey: SigningKey | null; onClose: () => void }) {
  const json = key?.public_jwk ? JSON.stringify(key.public_jwk, null, 2) : ''
  return (
    <Dialog
      open={key !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Public key ${key ? shortId(key) : ''}`}
      description="The public JWK published for this key. It verifies tokens; it cannot sign them."
      footer={
        <>
          <CopyButton value={json} what="public JWK" appearance="text" />
          <Button onClick={onClose}>Close</Button>
        </>
      }
    >
      <pre className="jwt-jwk" aria-label="Public JWK">
        {json}
      </pre>
    </Dialog>
  )
}
