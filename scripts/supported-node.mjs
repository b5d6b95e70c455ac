// Node 20 is past its end of life (April 2026) and the AWS SDK already warns on it: the package asks
// for the Node its engines field names, and a command started on an older one says so at once,
// before an import fails somewhere obscure. Node built-ins only, so it runs on any Node.
import { readFileSync } from 'node:fs';

const engines = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
/** The oldest Node.js major the package accepts (`>=22` in package.json's engines). */
export const OLDEST_NODE_MAJOR = Number(/\d+/.exec(engines)?.[0]);

/** Ends the process (exit 2) with what is wrong and what to do when `command` runs on an older Node. */
export function refuseUnsupportedNode(command) {
  const running = Number(process.versions.node.split('.')[0]);
  if (running >= OLDEST_NODE_MAJOR) return;
  process.stderr.write(
    `${command}: needs Node.js ${OLDEST_NODE_MAJOR} or newer (package.json engines "${engines}"), ` +
      `this is Node ${process.versions.node} (${process.execPath}). Run it through npm (npm start, npx sudoku), ` +
      `which uses the Node 24 that npm ci installs in node_modules, or put Node ${OLDEST_NODE_MAJOR}+ first on PATH.\n`,
  );
  process.exit(2);
}
