import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * Page components by route name. Only real pages are registered: a route of the table without
 * a page answers the 404 page ("does not exist or is still under development").
 * Area engineers add their pages here.
 */
export const PAGES: Record<string, LazyExoticComponent<ComponentType>> = {
  Workplace: lazy(() => import('../pages/dashboard/Workplace')),
  exception403: lazy(() => import('../pages/exception/Exception403')),
  exception404: lazy(() => import('../pages/exception/Exception404')),
  exception500: lazy(() => import('../pages/exception/Exception500')),
  RoleManage: lazy(() => import('../pages/system/RoleManage')),
  UserManage: lazy(() => import('../pages/system/UserManage')),
  SystemMaintainDisease: lazy(() => import('../pages/system/MaintainDisease')),
  SystemSet: lazy(() => import('../pages/system/SystemSet')),
  LogActivationLog: lazy(() => import('../pages/system/ActivationLog')),
  LogActivationDetails: lazy(() => import('../pages/system/ActivationDetails')),
  CrfManagementList: lazy(() => import('../pages/crf/FormList')),
  CrfHepatopathyPoc: lazy(() => import('../pages/crf/Records')),
  CrfHepatopathyPocEdit: lazy(() => import('../pages/crf/designer/Designer')),
  CrfHepatopathyPocEditTable: lazy(() => import('../pages/crf/designer/TableEditor')),
  crfItem: lazy(() => import('../pages/crf/free/FreeFill')),
  crfLgDetails: lazy(() => import('../pages/crf/free/FreeRecord')),
  crfLgEdit: lazy(() => import('../pages/crf/free/FreeRecord')),
  crfLgPreview: lazy(() => import('../pages/crf/free/FreePreview')),
  ProjectLgData: lazy(() => import('../pages/crf/free/FreeRecords')),
  PersonalInHospitalView: lazy(() => import('../pages/clinical/PersonalView')),
  PersonalSeeADoctor: lazy(() => import('../pages/clinical/PersonalView')),
  PersonalDiagnose: lazy(() => import('../pages/clinical/PersonalView')),
  PersonalAllergy: lazy(() => import('../pages/clinical/PersonalView')),
  PersonalDoctorsAdvice: lazy(() => import('../pages/clinical/PersonalView')),
  PersonalCheckout: lazy(() => import('../pages/clinical/PersonalView')),
  PersonalExamine: lazy(() => import('../pages/clinical/PersonalView')),
  PersonalSurgery: lazy(() => import('../pages/clinical/PersonalView')),
  PersonalPhysicalExamination: lazy(() => import('../pages/clinical/PersonalView')),
  PersonalPatientForm: lazy(() => import('../pages/clinical/PersonalView')),
  DataLakePatientDetails: lazy(() => import('../pages/clinical/PersonalView')),
  DataLakeDataResourceMaintenance: lazy(() => import('../pages/data-lake/ImportRecords')),
  DataLakeFullTextRetrieval: lazy(() => import('../pages/data-lake/FullTextRetrieval')),
  DataLakeCdrBrowser: lazy(() => import('../pages/data-lake/CdrBrowser')),
  DataLakeOverviews: lazy(() => import('../pages/data-lake/Overviews')),
};
