import { useParams } from 'react-router';
import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';
import { studyCrumbs } from '../utils/study-crumbs.ts';

/** Route module of /study/{id}/structure (placeholder until its feature lands). */
export function Component() {
  const { id = '' } = useParams();
  return (
    <FeaturePlaceholder
      title={paths.studyStructure.title}
      breadcrumbs={studyCrumbs(id, paths.studyStructure.title)}
      feature="study files"
    />
  );
}
