import {
  AI_SETTINGS_LIMITS,
  AI_SETTINGS_PLACEHOLDERS,
  AI_SETTINGS_PROVIDER_LABELS,
  AI_SETTINGS_PROVIDERS,
  type AiProviderSettingsView,
  type AiSettingsProvider,
  type AiSettingsView,
} from '@stratum/contracts'
import { useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { SelectField, TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useSaveAiSettings } from '../../data/ai-settings/useSaveAiSettings'

/** What the form starts from: the saved settings, else the environment's (without its key), else OpenAI. */
function initialOf(view: AiSettingsView): AiProviderSettingsView {
  return view.settings ?? { provider: 'openai', model: '', base_url: null, has_key: false }
}

/**
 * Provider, model, base URL and API key. The key is write-only: the server never sends it back, so
 * the field starts empty and an empty field keeps the saved key (for the same provider).
 */
export function AiProviderForm({ view }: { view: AiSettingsView }) {
  const toast = useToast()
  const save = useSaveAiSettings()
  const initial = initialOf(view)
  const [provider, setProvider] = useState<AiSettingsProvider>(initial.provider)
  const [model, setModel] = useState(initial.model)
  const [baseUrl, setBaseUrl] = useState(initial.base_url ?? '')
  const [apiKey, setApiKey] = useState('')
  const [removeKey, setRemoveKey] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  // Only a key saved in the database for this provider is kept: the environment's key stays there.
  const savedKey = view.source === 'saved' && view.settings?.has_key === true && view.settings.provider === provider
  const placeholders = AI_SETTINGS_PLACEHOLDERS[provider]
  const keyHint = removeKey
    ? 'The saved key is removed when you save.'
    : savedKey
      ? 'A key is saved. Leave this empty to keep it; it is never shown again.'
      : provider === 'openai-compatible'
        ? 'Optional: local servers such as Ollama need none. Never shown again once saved.'
        : 'Required. Stored encrypted and never shown again once saved.'

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    setProblem(null)
    const key = apiKey.trim()
    save.mutate(
      { provider, model, base_url: baseUrl, ...(key ? { api_key: key } : removeKey ? { api_key: null } : {}) },
      {
        onSuccess: () => {
          setApiKey('')
          setRemoveKey(false)
          toast.success('AI provider saved')
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    )
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="AI provider">
      <Card
        title="Provider"
        description="Used by the SQL editor's AI features and the assistant. Saving here overrides the STRATUM_AI_* environment variables."
        footer={
          <Button type="submit" variant="primary" loading={save.isPending}>
            Save
          </Button>
        }
      >
        <div className="stack">
          {problem ? (
            <Alert tone="danger" title="Could not save the AI provider">
              {problem}
            </Alert>
          ) : null}
          <SelectField label="Provider" value={provider} onChange={(event) => setProvider(event.target.value as AiSettingsProvider)}>
            {AI_SETTINGS_PROVIDERS.map((option) => (
              <option key={option} value={option}>
                {AI_SETTINGS_PROVIDER_LABELS[option]}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Model"
            value={model}
            onChange={(event) => setModel(event.target.value)}
            placeholder={placeholders.model}
            maxLength={AI_SETTINGS_LIMITS.modelLength}
            autoComplete="off"
            spellCheck={false}
            hint="The model's name as the provider knows it."
          />
          <TextField
            label="Base URL"
            type="url"
            value={baseUrl}
            onChange={(event) => setBaseUrl(event.target.value)}
            placeholder={placeholders.baseUrl}
            maxLength={AI_SETTINGS_LIMITS.baseUrlLength}
            autoComplete="off"
            spellCheck={false}
            hint={
              provider === 'openai-compatible'
                ? 'Required: the server’s OpenAI-compatible API, e.g. http://localhost:11434/v1 for Ollama.'
                : 'Optional: leave empty for the provider’s own endpoint, or name a proxy or gateway.'
            }
          />
          <TextField
            label="API key"
            type="password"
            value={apiKey}
            onChange={(event) => {
              setApiKey(event.target.value)
              if (event.target.value) setRemoveKey(false)
            }}
            placeholder={savedKey && !removeKey ? '••••••••  (saved)' : undefined}
            maxLength={AI_SETTINGS_LIMITS.apiKeyLength}
            autoComplete="new-password"
            spellCheck={false}
            hint={keyHint}
            labelAside={
              savedKey && !apiKey ? (
                <Button size="sm" variant="ghost" onClick={() => setRemoveKey(!removeKey)}>
                  {removeKey ? 'Keep saved key' : 'Remove saved key'}
                </Button>
              ) : null
            }
          />
        </div>
      </Card>
    </form>
  )
}
