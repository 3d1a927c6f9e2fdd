import { DEFAULT_ENTRYPOINT, DEFAULT_VERIFY_JWT, FunctionSlug, type FunctionResponse } from '@stratum/contracts'
import { CircleCheck, Rocket } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { CopyField } from '../../components/ui/CopyField'
import { Dialog } from '../../components/ui/Dialog'
import { TextAreaField, TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { useDeployFunction } from '../../data/functions/useDeployFunction'
import { DEFAULT_FUNCTION_CODE, downloadCommand, FUNCTION_TEXTS, functionUrl } from './texts'

interface DeployFunctionCardProps {
  projectRef: string
  /** Slugs already deployed: deploying one of them asks to replace it first. */
  existingSlugs: ReadonlySet<string>
  /** The project's API URL (where functions will be served), when known. */
  apiUrl: string | undefined
  canWrite: boolean
  onClose: () => void
}

/**
 * The deploy flow of the spec: idle (the form), deploying, deployed (live URL and download
 * command). A slug that exists already gets a replace warning first: Cancel or Replace function.
 */
export function DeployFunctionCard({ projectRef, existingSlugs, apiUrl, canWrite, onClose }: DeployFunctionCardProps) {
  const toast = useToast()
  const deploy = useDeployFunction()
  const [slug, setSlug] = useState('')
  const [code, setCode] = useState(DEFAULT_FUNCTION_CODE)
  const [verifyJwt, setVerifyJwt] = useState(DEFAULT_VERIFY_JWT)
  const [slugError, setSlugError] = useState<string>()
  const [codeError, setCodeError] = useState<string>()
  const [confirmReplace, setConfirmReplace] = useState(false)
  const [deployed, setDeployed] = useState<FunctionResponse>()

  const run = (name: string) => {
    setConfirmReplace(false)
    deploy.mutate(
      {
        ref: projectRef,
        slug: name,
        metadata: { entrypoint_path: DEFAULT_ENTRYPOINT, name, verify_jwt: verifyJwt },
        files: [{ name: DEFAULT_ENTRYPOINT, content: code }],
      },
      {
        onSuccess: (fn) => {
          setDeployed(fn)
          toast.success(FUNCTION_TEXTS.deployed)
        },
        onError: (error) => toast.error(FUNCTION_TEXTS.deployFailed(error instanceof Error ? error.message : undefined)),
      },
    )
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const name = slug.trim()
    const parsed = FunctionSlug.safeParse(name)
    const slugProblem = parsed.success ? undefined : parsed.error.issues[0]?.message
    const codeProblem = code.trim() ? undefined : `${DEFAULT_ENTRYPOINT} cannot be empty`
    setSlugError(slugProblem)
    setCodeError(codeProblem)
    if (slugProblem || codeProblem) return
    if (existingSlugs.has(name)) setConfirmReplace(true)
    else run(name)
  }

  if (deployed) {
    // Keyed apart from the form's card: otherwise React reuses the 'Deploy again' button as the
    // form's submit button during the click, and the click submits the form.
    return (
      <Card
        key="deployed"
        title={
          <span className="row">
            <CircleCheck size={16} className="fn-success-icon" aria-hidden="true" />
            Deployed {deployed.slug}, version {deployed.version}
          </span>
        }
        description="Its next request runs this version, at this URL."
        footer={
          <div className="form-actions">
            <Button onClick={onClose}>Close</Button>
            <Button
              onClick={() => {
                setDeployed(undefined)
                deploy.reset()
              }}
            >
              Deploy again
            </Button>
            <Link className="btn btn-primary btn-md" to={`/project/${projectRef}/functions/${deployed.slug}/details`}>
              View details
            </Link>
          </div>
        }
      >
        <div className="stack">
          {apiUrl ? <CopyField label="Function URL" value={functionUrl(apiUrl, deployed.slug)} /> : null}
          <CopyField
            label="Download command"
            value={downloadCommand(window.location.origin, projectRef, deployed.slug)}
            hint="Downloads the deployed files as multipart/form-data, with a personal access token from your account."
          />
        </div>
      </Card>
    )
  }

  const deploying = deploy.isPending
  return (
    <Card
      key="form"
      title="Deploy a new function"
      description={`Entrypoint ${DEFAULT_ENTRYPOINT}. Deploying a slug that exists replaces it with a new version.`}
      footer={
        <div className="form-actions">
          <Button onClick={onClose} disabled={deploying}>
            Cancel
          </Button>
          <Button
            type="submit"
            form="deploy-function-form"
            variant="primary"
            icon={<Rocket size={14} aria-hidden="true" />}
            loading={deploying}
            disabled={!canWrite}
            disabledReason={FUNCTION_TEXTS.writePermission}
          >
            {deploying ? 'Deploying…' : 'Deploy function'}
          </Button>
        </div>
      }
    >
      <form id="deploy-function-form" className="stack" onSubmit={submit} noValidate>
        <TextField
          label="Slug"
          value={slug}
          onChange={(event) => setSlug(event.target.value)}
          error={slugError}
          hint="Letters, digits, '_' and '-', starting with a letter. Also the function's name and the last part of its URL."
          placeholder="hello-world"
          autoComplete="off"
          spellCheck={false}
          autoFocus
          disabled={deploying}
        />
        <label className="fn-checkbox">
          <input type="checkbox" checked={verifyJwt} onChange={(event) => setVerifyJwt(event.target.checked)} disabled={deploying} />
          <span>
            Verify JWT
            <span className="field-hint fn-checkbox-hint">Callers must send a valid JWT (the anon key or a signed-in user's token).</span>
          </span>
        </label>
        <TextAreaField
          label={DEFAULT_ENTRYPOINT}
          className="mono fn-code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          error={codeError}
          rows={14}
          spellCheck={false}
          disabled={deploying}
        />
      </form>
      <Dialog
        open={confirmReplace}
        onOpenChange={setConfirmReplace}
        size="sm"
        title={`Replace ${slug.trim()}?`}
        description={`A function with the slug ${slug.trim()} already exists. Deploying replaces its files with these and gives it a new version.`}
        footer={
          <>
            <Button onClick={() => setConfirmReplace(false)}>Cancel</Button>
            <Button variant="danger" onClick={() => run(slug.trim())}>
              {FUNCTION_TEXTS.replaceTitle}
            </Button>
          </>
        }
      />
    </Card>
  )
}
