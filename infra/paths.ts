// Where `npm run build` puts the Lambda bundle, as scripts/bundles.mjs (the one definition of the
// bundles) says: CDK deploys that folder.
export { handlerBundle, handlerBundleDir, root } from '../scripts/bundles.mjs';
