// The FFmpeg headers FaceTrack uses, plus small inline functions for the
// macros that Swift cannot import (function-like and compound-literal macros).
#ifndef FACETRACK_CFFMPEG_SHIM_H
#define FACETRACK_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

/// AVERROR(e): a POSIX errno as an FFmpeg error code.
static inline int ft_averror(int posixError) { return AVERROR(posixError); }

/// AVERROR_EOF: end of file.
static inline int ft_averror_eof(void) { return AVERROR_EOF; }

/// AVERROR(EAGAIN): the codec wants input (or output) first.
static inline int ft_averror_eagain(void) { return AVERROR(EAGAIN); }

/// AVERROR_INVALIDDATA: the bitstream is damaged.
static inline int ft_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }

/// AVERROR_EXTERNAL: a wrapped library failed (libx264 says no more than this when its malloc fails).
static inline int ft_averror_external(void) { return AVERROR_EXTERNAL; }

/// AV_NOPTS_VALUE: no timestamp.
static inline int64_t ft_nopts_value(void) { return AV_NOPTS_VALUE; }

/// AV_TIME_BASE_Q: microseconds, the time base of AVFormatContext.duration.
static inline AVRational ft_time_base_q(void) { return AV_TIME_BASE_Q; }

/// av_err2str: the message of an FFmpeg error code, written into buffer.
static inline const char *ft_error_string(int code, char *buffer, size_t size) {
    av_strerror(code, buffer, size);
    return buffer;
}

#endif
