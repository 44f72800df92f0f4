/**
 * Shapes of the research-subject calls: the API contract of @crdp/core (contracts/research.ts),
 * under the names the research services use.
 */
export {
  RESEARCH_PROJECT_ROLES as PROJECT_ROLES,
  type ResearchAnalysisParams as AnalysisParams,
  type ResearchDerivedDef as DerivedDef,
  type ResearchMembersInput as MembersInput,
  type ResearchProjectRole as ProjectRole,
  type ResearchSubjectInput as SubjectInput,
  type ResearchSubjectPatch as SubjectPatch,
  type ResearchVariableDef as VariableDef,
  researchAnalysisInput as analysisInput,
  researchDatasetInput as datasetInput,
  researchDatasetParams as datasetParams,
  researchDerived as derivedSchema,
  researchMembersInput as membersInput,
  researchMoveInput as moveInput,
  researchRecruitInput as recruitInput,
  researchSubjectInput as subjectInput,
  researchSubjectParams as subjectParams,
  researchSubjectPatch as subjectPatch,
  researchSubjectQuery as listQuery,
  researchTypeInput as typeInput,
  researchTypeParams as typeParams,
  researchVariable as variableSchema,
} from '@crdp/core';
