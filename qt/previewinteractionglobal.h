// The adapter's export macro and version.
#pragma once

#include <QtCore/qglobal.h>

#if defined(PREVIEWINTERACTIONQT_BUILDING)
#define PREVIEWINTERACTIONQT_EXPORT Q_DECL_EXPORT
#else
#define PREVIEWINTERACTIONQT_EXPORT Q_DECL_IMPORT
#endif

#define PREVIEWINTERACTIONQT_VERSION_STR "1.0.0"
