/* tslint:disable */
/* eslint-disable */
export * from './AlbumsApi';
export * from './EditsApi';
export * from './ExportsApi';
export * from './FeedApi';
export * from './JobsApi';
export * from './OperationsApi';
export * from './PhotosApi';
export * from './RendersApi';
export * from './ResourcesApi';
export * from './VersionsApi';
