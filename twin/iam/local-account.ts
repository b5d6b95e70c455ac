/**
 * The account the twin plays: one AWS account and region, and who may call its local S3. Each
 * caller signs with an access key of its own, so the twin knows which synthesized role a request
 * comes from, as AWS knows it from the role session's credentials. The AWS CLI user of the
 * README's examples (key S3RVER) is the account's administrator.
 */

export const LOCAL_ACCOUNT_ID = '123456789012';
export const LOCAL_REGION = 'us-east-1';
export const LOCAL_PARTITION = 'aws';

/** Who calls the twin's S3: the account's admin, the two functions and the two state machines. */
export type LocalCaller = 'admin' | 'files' | 'api' | 'run' | 'largeFile';

/**
 * Access key of each caller (its secret is the same string: the twin trusts the key, as s3rver
 * does not check SigV4 signatures). `S3RVER` stays the admin so every existing client and the
 * README's `aws --endpoint-url ... s3` lines keep working.
 */
export const LOCAL_ACCESS_KEYS: Readonly<Record<LocalCaller, string>> = {
  admin: 'S3RVER',
  files: 'LOCALFILESFUNCTION',
  api: 'LOCALAPIFUNCTION',
  run: 'LOCALBATCHRUN',
  largeFile: 'LOCALLARGEFILERUN',
};

/** S3 credentials that sign as `caller` (secret = key). */
export function localCredentials(caller: LocalCaller): { accessKeyId: string; secretAccessKey: string } {
  const key = LOCAL_ACCESS_KEYS[caller];
  return { accessKeyId: key, secretAccessKey: key };
}

/** The admin user's ARN: it has AdministratorAccess and nothing else. */
export const LOCAL_ADMIN_ARN = `arn:${LOCAL_PARTITION}:iam::${LOCAL_ACCOUNT_ID}:user/local-admin`;
