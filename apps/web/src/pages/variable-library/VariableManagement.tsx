import { Variables } from './Variables';

/** 变量管理 (`/variable-library/variable-management`): define, change and delete variables. */
export default function VariableManagement() {
  return <Variables manage />;
}
