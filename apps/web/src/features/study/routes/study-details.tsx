import { useParams } from 'react-router';
import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';
import { studyCrumbs } from '../utils/study-crumbs.ts';

/** Route module of /study/{id} (placeholder until its feature lands). */
export function Component() {
  const { id = '' } = useParams();
  return (
    <FeaturePlaceholder
      title={paths.studyDetails.title}
      breadcrumbs={studyCrumbs(id)}
      feature="study details"
    />
  );
}
