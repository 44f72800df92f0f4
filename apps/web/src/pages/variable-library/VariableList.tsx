import { Variables } from './Variables';

/** 变量列表 (`/variable-library/variable-list`): the variables and their distributions. */
export default function VariableList() {
  return <Variables manage={false} />;
}
