import type { FunctionAction } from '@crdp/core';
import { type ReactNode, useCallback } from 'react';
import { hasAction, hasApiId } from '../app/access';
import { useSession } from '../app/session';

/**
 * The button directive of spec 000 section 6: renders its children only when the user's
 * functions include `apiId` (e.g. `UserManage.add`). The server still refuses the call.
 */
export function Authorized({
  apiId,
  children,
  fallback = null,
}: {
  apiId: string;
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const { access } = useSession();
  return <>{access && hasApiId(access, apiId) ? children : fallback}</>;
}

/** `permissionId.action` check for code paths, e.g. `can('UserManage', 'add')` to show a column. */
export function useHasAction() {
  const { access } = useSession();
  // The same function while the permissions stay: tables whose columns depend on it keep them.
  return useCallback(
    (permissionId: string, action: FunctionAction) => !!access && hasAction(access, permissionId, action),
    [access],
  );
}
