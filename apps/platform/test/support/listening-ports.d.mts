export function listeningPorts(): Set<number>
