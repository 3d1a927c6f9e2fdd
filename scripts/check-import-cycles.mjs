#!/usr/bin/env node
// Fails (exit 1) when any source file of the workspaces reaches itself through its imports, as
// `madge --circular` would. Every import counts, `import type` included: a circle of types is
// still a circle in the design, and it turns into a runtime one the day a value joins it.
// Imports are read and resolved by the TypeScript compiler itself (each workspace's tsconfig), so
// `./x.js` finds `x.ts` and `@stratum/contracts` finds the workspace's source.
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

const root = path.resolve(import.meta.dirname, '..')
const workspaces = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces
const inRepo = (file) => file.startsWith(root + path.sep) && !file.split(path.sep).includes('node_modules')

/** file -> the repository files it imports */
const graph = new Map()
for (const workspace of workspaces) {
  const configFile = path.join(root, workspace, 'tsconfig.json')
  if (!fs.existsSync(configFile)) continue
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')) } }
  const config = ts.getParsedCommandLineOfConfigFile(configFile, {}, host)
  for (const file of config.fileNames) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true)
    const targets = new Set()
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, config.options, ts.sys).resolvedModule?.resolvedFileName
      if (resolved && inRepo(resolved)) targets.add(path.resolve(resolved))
    }
    graph.set(path.resolve(file), [...targets])
  }
}

/** Strongly connected components (Tarjan, iterative): each with more than one file is a circle. */
function circles() {
  const order = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const found = []
  let next = 0
  for (const start of graph.keys()) {
    if (order.has(start)) continue
    const frames = [{ file: start, edges: graph.get(start) ?? [], i: 0 }]
    order.set(start, next); low.set(start, next++); stack.push(start); onStack.add(start)
    while (frames.length) {
      const frame = frames.at(-1)
      if (frame.i < frame.edges.length) {
        const target = frame.edges[frame.i++]
        if (!order.has(target)) {
          order.set(target, next); low.set(target, next++); stack.push(target); onStack.add(target)
          frames.push({ file: target, edges: graph.get(target) ?? [], i: 0 })
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file), order.get(target)))
        }
        continue
      }
      frames.pop()
      if (frames.length) low.set(frames.at(-1).file, Math.min(low.get(frames.at(-1).file), low.get(frame.file)))
      if (low.get(frame.file) !== order.get(frame.file)) continue
      const component = []
      for (let file; file !== frame.file; ) {
        file = stack.pop()
        onStack.delete(file)
        component.push(file)
      }
      if (component.length > 1 || graph.get(frame.file)?.includes(frame.file)) found.push(component)
    }
  }
  return found
}

/** One concrete path around a component, for the message: a -> b -> c -> a. */
function pathAround(component) {
  const members = new Set(component)
  const start = component[0]
  const previous = new Map([[start, null]])
  const queue = [start]
  while (queue.length) {
    const file = queue.shift()
    for (const target of graph.get(file) ?? []) {
      if (!members.has(target)) continue
      if (target === start) {
        const chain = [start]
        for (let at = file; at !== start; at = previous.get(at)) chain.splice(1, 0, at)
        return [...chain, start]
      }
      if (!previous.has(target)) {
        previous.set(target, file)
        queue.push(target)
      }
    }
  }
  return component
}

const found = circles()
if (found.length === 0) {
  console.log(`No import circle in ${graph.size} files.`)
} else {
  console.error(`${found.length} import circle${found.length > 1 ? 's' : ''}:`)
  for (const component of found) {
    const around = pathAround(component)
    console.error('  ' + around.map((file) => path.relative(root, file)).join(' -> '))
    const others = component.filter((file) => !around.includes(file))
    if (others.length) console.error(`    (the same knot also holds ${others.map((file) => path.relative(root, file)).join(', ')})`)
  }
  process.exit(1)
}
