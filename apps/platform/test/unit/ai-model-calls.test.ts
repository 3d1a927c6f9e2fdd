import { generateText, simulateReadableStream } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { AiProviderError } from '../../src/ai/errors.js'
import { buildCompletionPrompt, streamCompletion, CONTEXT_BEFORE_MAX_CHARS, type CompletionMetadata } from '../../src/ai/inline-completion.js'
import { AiService, createLanguageModel } from '../../src/ai/model.js'
import { cleanTitle, generateTitle, parseTitleAnswer } from '../../src/ai/title.js'
import { startOpenAiCompatibleServer } from '../support/openai-compatible-server.mjs'

/** Usage in the V3 shape: the numbers do not matter to these tests. */
export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
}

/** A scripted model that streams the given text deltas (or fails with `error` after them). */
export function streamingModel(deltas: string[], error?: Error): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: 'stream-start' as const, warnings: [] },
          { type: 'text-start' as const, id: 't' },
          ...deltas.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
          ...(error
            ? [{ type: 'error' as const, error }]
            : [
                { type: 'text-end' as const, id: 't' },
                { type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: 'stop' }, usage },
              ]),
        ],
      }),
    }),
  })
}

/** A scripted model that answers one generateText call with `text`. */
export function generatingModel(text: string): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    }),
  })
}

/** The text of every message of a recorded call, system prompt first. */
export function promptText(call: { prompt: Array<{ role: string; content: unknown }> }): { system: string; user: string } {
  const text = (content: unknown) =>
    typeof content === 'string' ? content : (content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('')
  return {
    system: call.prompt.filter((m) => m.role === 'system').map((m) => text(m.content)).join('\n'),
    user: call.prompt.filter((m) => m.role === 'user').map((m) => text(m.content)).join('\n'),
  }
}

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = []
  for await (const chunk of chunks) out.push(chunk)
  return out
}

const SCHEMA = 'Schemas: public\nTables (column type; pk = primary key; -> = foreign key):\npublic.orders(id int8 pk, total numeric)'

const metadata = (overrides: Partial<CompletionMetadata> = {}): CompletionMetadata => ({
  textBeforeCursor: 'select * from orders\nwhere ',
  textAfterCursor: '\norder by id;',
  language: 'pgsql',
  prompt: 'only orders above 100',
  selection: 'total > 0',
  ...overrides,
})

describe('inline completion', () => {
  it('sends the instruction, the editor text, the selection and the schema, and streams what the model wrote', async () => {
    const model = streamingModel(['total ', '> 100', ''])
    const chunks = await collect(streamCompletion(model, metadata(), SCHEMA))
    expect(chunks.join('')).toBe('total > 100')
    expect(chunks.length).toBeGreaterThan(1)

    expect(model.doStreamCalls).toHaveLength(1)
    const { system, user } = promptText(model.doStreamCalls[0]!)
    expect(system).toContain('Answer ONLY with the SQL that replaces the selection')
    expect(system).toContain('No markdown code fences')
    expect(system).toContain('public.orders(id int8 pk, total numeric)')
    expect(user).toContain('Instruction: only orders above 100')
    expect(user).toContain('<selection>\ntotal > 0\n</selection>')
    expect(user).toContain('select * from orders\nwhere ')
    expect(user).toContain('order by id;')
    expect(user).toContain('replaces the selection')
    expect(model.doStreamCalls[0]!.temperature).toBe(0)
  })

  it('asks for an insertion when nothing is selected, and says when the schema is unknown', () => {
    const { system, prompt } = buildCompletionPrompt(metadata({ selection: '' }), null)
    expect(prompt).toContain('inserted at the cursor')
    expect(prompt).toContain('<selection></selection>')
    expect(system).toContain('The database schema could not be read')
  })

  it('keeps the editor text nearest the cursor when it is long', () => {
    const before = 'x'.repeat(CONTEXT_BEFORE_MAX_CHARS) + 'NEAR_CURSOR'
    const { prompt } = buildCompletionPrompt(metadata({ textBeforeCursor: 'FAR_AWAY' + before }), SCHEMA)
    expect(prompt).toContain('NEAR_CURSOR')
    expect(prompt).not.toContain('FAR_AWAY')
  })

  it('strips the markdown fences a model adds anyway, across chunks', async () => {
    const model = streamingModel(['``', '`sql\nsel', 'ect 1;\n`', '``\nThis selects one.'])
    expect((await collect(streamCompletion(model, metadata(), SCHEMA))).join('')).toBe('select 1;')
  })

  it("throws the provider's message as an AiProviderError", async () => {
    const failing = streamingModel([], new Error('Incorrect API key provided'))
    const error = await collect(streamCompletion(failing, metadata(), SCHEMA)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AiProviderError)
    expect((error as Error).message).toBe('Incorrect API key provided')
  })

  it('ends quietly when the caller aborts', async () => {
    const controller = new AbortController()
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [{ type: 'text-start' as const, id: 't' }, ...Array.from({ length: 50 }, () => ({ type: 'text-delta' as const, id: 't', delta: 'x' }))],
          chunkDelayInMs: 5,
        }),
      }),
    })
    const out: string[] = []
    for await (const chunk of streamCompletion(model, metadata(), SCHEMA, controller.signal)) {
      out.push(chunk)
      if (out.length === 2) controller.abort()
    }
    expect(out.length).toBeLessThan(50)
  })
})

describe('AiService', () => {
  it('is off without settings, and uses an injected model', async () => {
    expect(new AiService(null).enabled).toBe(false)
    expect(new AiService(null).model()).toBeNull()
    const model = generatingModel('hi')
    const service = new AiService(null, { model })
    expect(service.enabled).toBe(true)
    expect((await generateText({ model: service.model()!, prompt: 'x' })).text).toBe('hi')
  })

  it('builds the model once from the settings through the factory', () => {
    const built: string[] = []
    const service = new AiService(
      { provider: 'openai-compatible', model: 'm', apiKey: null, baseUrl: 'http://127.0.0.1:1/v1' },
      { factory: (settings) => (built.push(settings.model), generatingModel('x')) },
    )
    expect(service.model()).toBe(service.model())
    expect(built).toEqual(['m'])
  })
})

describe('provider models', () => {
  it('builds each provider with the configured model', () => {
    const openai = createLanguageModel({ provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'sk', baseUrl: null })
    const anthropic = createLanguageModel({ provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'ant', baseUrl: null })
    const compatible = createLanguageModel({ provider: 'openai-compatible', model: 'qwen', apiKey: null, baseUrl: 'http://127.0.0.1:11434/v1' })
    expect([openai.provider, openai.modelId]).toEqual(['openai.chat', 'gpt-4.1-mini'])
    expect([anthropic.provider, anthropic.modelId]).toEqual(['anthropic.messages', 'claude-sonnet-4-5'])
    expect([compatible.provider, compatible.modelId]).toEqual(['openai-compatible.chat', 'qwen'])
  })

  it('talks Chat Completions to STRATUM_AI_BASE_URL with the OpenAI provider, key as a Bearer token', async () => {
    const fake = await startOpenAiCompatibleServer({ apiKey: 'sk-test', reply: () => 'select now();' })
    try {
      const model = createLanguageModel({ provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'sk-test', baseUrl: fake.url })
      expect((await collect(streamCompletion(model, metadata(), SCHEMA))).join('')).toBe('select now();')
      expect(fake.requests[0].model).toBe('gpt-4.1-mini')
      expect(fake.requests[0].authorization).toBe('Bearer sk-test')
      // Ollama: no key, no Authorization header.
      const keyless = await startOpenAiCompatibleServer({ reply: () => 'select 1;' })
      try {
        const local = createLanguageModel({ provider: 'openai-compatible', model: 'qwen', apiKey: null, baseUrl: keyless.url })
        expect((await collect(streamCompletion(local, metadata(), null))).join('')).toBe('select 1;')
        expect(keyless.requests[0].authorization).toBeNull()
      } finally {
        await keyless.close()
      }
    } finally {
      await fake.close()
    }
  })
})

describe('snippet titles', () => {
  it('reads the JSON the model was asked for, in a fence or not', () => {
    expect(parseTitleAnswer('{"title": "Monthly revenue", "description": "Sums revenue by month."}')).toEqual({
      title: 'Monthly revenue',
      description: 'Sums revenue by month.',
    })
    expect(parseTitleAnswer('```json\n{"title": "List active users.", "description": "Lists users."}\n```')).toEqual({
      title: 'List active users',
      description: 'Lists users.',
    })
    expect(parseTitleAnswer('Sure! Here it is: {"title": "\\"Quoted\\"", "description": 3}')).toEqual({ title: 'Quoted', description: '' })
  })

  it('falls back to the first line as the title', () => {
    expect(parseTitleAnswer('Title: "Orders per customer".\nCounts the orders of each customer.')).toEqual({
      title: 'Orders per customer',
      description: 'Counts the orders of each customer.',
    })
    expect(parseTitleAnswer('{"title": broken json')).toEqual({ title: '{"title": broken json', description: '' })
    expect(parseTitleAnswer('  \n ')).toBeNull()
  })

  it('keeps titles short, cut at a word', () => {
    const title = cleanTitle('Find every customer who ordered more than ten items in the last quarter of the year')
    expect(title.length).toBeLessThanOrEqual(50)
    expect(title).toBe('Find every customer who ordered more than ten')
    expect(cleanTitle("'Count rows.'")).toBe('Count rows')
  })

  it('asks the model with the SQL and returns the parsed answer', async () => {
    const model = generatingModel('```json\n{"title": "Top products", "description": "Lists the best-selling products."}\n```')
    await expect(generateTitle(model, 'select name from products order by sales desc limit 10')).resolves.toEqual({
      title: 'Top products',
      description: 'Lists the best-selling products.',
    })
    const { system, user } = promptText(model.doGenerateCalls[0]!)
    expect(system).toContain('"title"')
    expect(user).toContain('select name from products order by sales desc limit 10')
  })

  it('turns provider failures and empty answers into AiProviderError', async () => {
    const failing = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error('model not found')
      },
    })
    await expect(generateTitle(failing, 'select 1')).rejects.toThrow(new AiProviderError('model not found'))
    await expect(generateTitle(generatingModel(''), 'select 1')).rejects.toThrow('The AI provider returned no title')
  })
})
