/**
 * What the twin puts in a function's environment so that it reaches the twin instead of AWS: the
 * SDK's own variables, as Lambda gives a function its role's credentials. The shipped code reads
 * none of them itself (the SDK does), so it holds no local endpoint, key or branch.
 */
import { type LocalCaller, LOCAL_REGION, localCredentials } from '../iam/local-account.js';

/** The SDK's service-specific endpoint variables (AWS SDKs and Tools: "Service-specific endpoints"). */
export const SDK_ENDPOINT_ENV = { s3: 'AWS_ENDPOINT_URL_S3', sfn: 'AWS_ENDPOINT_URL_SFN' } as const;

/** The twin's S3 at `s3Endpoint`, signed as `caller` (the files function's role unless told). */
export function functionEnvironment(s3Endpoint: string, caller: LocalCaller = 'files'): Record<string, string> {
  const { accessKeyId, secretAccessKey } = localCredentials(caller);
  return {
    [SDK_ENDPOINT_ENV.s3]: s3Endpoint,
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_REGION: LOCAL_REGION,
  };
}

/**
 * Sets `env` (this process's, for a function run in it or in its worker threads) to the function's
 * environment. The keys replace any in the shell: real AWS keys would not sign for the twin.
 */
export function useFunctionEnvironment(env: NodeJS.ProcessEnv, s3Endpoint: string, caller?: LocalCaller): void {
  Object.assign(env, functionEnvironment(s3Endpoint, caller));
  // A session token from the shell would be sent with the twin's keys.
  delete env.AWS_SESSION_TOKEN;
}
