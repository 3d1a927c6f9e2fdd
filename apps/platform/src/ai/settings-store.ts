import type { AiProviderSettingsView, AiSettingsView, SaveAiSettings } from '@stratum/contracts'
import type { AiSettings } from '../config.js'
import type { SecretBox } from '../control/secret-box.js'
import { invalidInput } from '../errors.js'
import type { Queryable } from '../store/db.js'
import type { AiService } from './model.js'

/**
 * The installation's AI provider saved from the dashboard (migration 018): one row that overrides the
 * STRATUM_AI_* environment while it exists. The key is sealed with the data-dir key and only ever
 * opened to build the model.
 */
interface AiSettingsRow {
  provider: AiSettings['provider']
  model: string
  base_url: string | null
  api_key_sealed: string | null
  updated_at: Date
}

async function readRow(db: Queryable): Promise<AiSettingsRow | null> {
  const { rows } = await db.query<AiSettingsRow>('SELECT provider, model, base_url, api_key_sealed, updated_at FROM ai_settings')
  return rows[0] ?? null
}

const settingsOf = (row: AiSettingsRow, box: SecretBox): AiSettings => ({
  provider: row.provider,
  model: row.model,
  baseUrl: row.base_url,
  apiKey: row.api_key_sealed === null ? null : box.open(row.api_key_sealed),
})

/** Boot: puts the saved settings, if any, in force. */
export async function loadSavedAiSettings(db: Queryable, box: SecretBox, ai: AiService): Promise<void> {
  const row = await readRow(db)
  ai.override(row ? settingsOf(row, box) : null)
}

const viewOf = (settings: AiSettings | null): AiProviderSettingsView | null =>
  settings && { provider: settings.provider, model: settings.model, base_url: settings.baseUrl, has_key: settings.apiKey !== null }

export async function aiSettingsView(db: Queryable, ai: AiService): Promise<AiSettingsView> {
  const row = await readRow(db)
  return {
    source: ai.overridden ? 'saved' : ai.defaults ? 'environment' : 'none',
    settings: viewOf(ai.settings),
    environment: viewOf(ai.defaults),
    updated_at: row?.updated_at.toISOString() ?? null,
  }
}

/**
 * Saves and puts in force. An absent key keeps the saved one only for the same provider: a key is
 * never sent to a provider it was not saved for. OpenAI and Anthropic refuse calls without a key, so
 * saving them without one would only turn AI off by surprise.
 */
export async function saveAiSettings(db: Queryable, box: SecretBox, ai: AiService, body: SaveAiSettings, userId: string): Promise<void> {
  const before = await readRow(db)
  const keptKey = body.api_key === undefined && before?.provider === body.provider ? before.api_key_sealed : null
  const sealedKey = typeof body.api_key === 'string' ? box.seal(body.api_key) : keptKey
  if (sealedKey === null && body.provider !== 'openai-compatible') throw invalidInput(`api_key is required for ${body.provider}`)
  const { rows } = await db.query<AiSettingsRow>(
    `INSERT INTO ai_settings (provider, model, base_url, api_key_sealed, updated_by) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (singleton) DO UPDATE SET provider = $1, model = $2, base_url = $3, api_key_sealed = $4, updated_by = $5, updated_at = now()
     RETURNING provider, model, base_url, api_key_sealed, updated_at`,
    [body.provider, body.model, body.base_url ?? null, sealedKey, userId],
  )
  ai.override(settingsOf(rows[0]!, box))
}

/** "Reset to environment defaults": removes the saved row; the environment's settings apply again. */
export async function removeAiSettings(db: Queryable, ai: AiService): Promise<void> {
  await db.query('DELETE FROM ai_settings')
  ai.override(null)
}
