import { DEFAULT_ENTRYPOINT, DEFAULT_VERIFY_JWT, DisplayEdgeFunctionArgs, FunctionSlug, type FunctionResponse } from '@stratum/contracts'
import { CircleCheck, Rocket } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../components/ui/Button'
import { CopyField } from '../../components/ui/CopyField'
import { Dialog } from '../../components/ui/Dialog'
import { useToast } from '../../components/ui/Toast'
import { projectApiUrl, useProjectSettings } from '../../data/api-keys/useProjectSettings'
import { useDeployFunction } from '../../data/functions/useDeployFunction'
import { useFunctions } from '../../data/functions/useFunctions'
import { downloadCommand, functionUrl, FUNCTION_TEXTS } from '../functions'

/** The assistant spec's deploy failure toast (its own wording, not the Functions page's). */
const deployFailed = (message: string | undefined) => `Failed to deploy function: ${message || 'Unknown error'}`

interface EdgeFunctionBlockProps {
  projectRef: string
  input: unknown
  canDeploy: boolean
}

/**
 * display_edge_function: the code, and Deploy through the Functions page's flow (idle, deploying,
 * deployed with the live URL and download command); a slug that exists asks Cancel or Replace function first.
 */
export function EdgeFunctionBlock({ projectRef, input, canDeploy }: EdgeFunctionBlockProps) {
  const toast = useToast()
  const deploy = useDeployFunction()
  const functions = useFunctions(projectRef)
  const settings = useProjectSettings(projectRef)
  const [confirmReplace, setConfirmReplace] = useState(false)
  const [deployed, setDeployed] = useState<FunctionResponse>()
  const args = DisplayEdgeFunctionArgs.safeParse(input)
  if (!args.success) return <p className="assistant-note">The assistant sent a function that could not be read.</p>
  const { name, code } = args.data
  const slug = FunctionSlug.safeParse(name)

  const run = () => {
    setConfirmReplace(false)
    deploy.mutate(
      {
        ref: projectRef,
        slug: name,
        metadata: { entrypoint_path: DEFAULT_ENTRYPOINT, name, verify_jwt: DEFAULT_VERIFY_JWT },
        files: [{ name: DEFAULT_ENTRYPOINT, content: code }],
      },
      {
        onSuccess: (fn) => {
          setDeployed(fn)
          toast.success(FUNCTION_TEXTS.deployed)
        },
        onError: (error) => toast.error(deployFailed(error instanceof Error ? error.message : undefined)),
      },
    )
  }
  const start = () => {
    if ((functions.data ?? []).some((fn) => fn.slug === name)) setConfirmReplace(true)
    else run()
  }

  return (
    <section className="assistant-function-block" aria-label={`Edge function ${name}`}>
      <header className="assistant-block-header">
        <span className="mono">{name}</span>
        <span className="spacer" />
        {deployed ? (
          <span className="row assistant-deployed">
            <CircleCheck size={14} aria-hidden="true" /> Deployed, version {deployed.version}
          </span>
        ) : (
          <Button
            size="sm"
            variant="primary"
            icon={<Rocket size={14} aria-hidden="true" />}
            loading={deploy.isPending}
            disabled={!canDeploy || !slug.success}
            disabledReason={!canDeploy ? FUNCTION_TEXTS.writePermission : slug.success ? undefined : slug.error.issues[0]?.message}
            onClick={start}
          >
            {deploy.isPending ? 'Deploying…' : 'Deploy'}
          </Button>
        )}
      </header>
      <pre className="assistant-code mono">{code}</pre>
      {deployed ? (
        <div className="stack assistant-deployed-details">
          {settings.data ? <CopyField label="Function URL" value={functionUrl(projectApiUrl(settings.data), deployed.slug)} /> : null}
          <CopyField label="Download command" value={downloadCommand(window.location.origin, projectRef, deployed.slug)} />
        </div>
      ) : null}
      <Dialog
        open={confirmReplace}
        onOpenChange={setConfirmReplace}
        size="sm"
        title={`Replace ${name}?`}
        description={`A function with the slug ${name} already exists. Deploying replaces its files with these and gives it a new version.`}
        footer={
          <>
            <Button onClick={() => setConfirmReplace(false)}>Cancel</Button>
            <Button variant="danger" onClick={run}>
              {FUNCTION_TEXTS.replaceTitle}
            </Button>
          </>
        }
      />
    </section>
  )
}
