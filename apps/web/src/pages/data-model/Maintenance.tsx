import { OwnModels } from './OwnModels';

/** 模型维护 (`/data-model/model-maintenance`): the hospital's own data models. */
export default function Maintenance() {
  return <OwnModels kind="hospital" />;
}
