package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// s3:// is read through S3's REST interface, the two requests a scan makes
// (ListObjectsV2 and a ranged GET), signed with the AWS SDK's Signature V4
// signer and credentials from the SDK's default chain (environment, shared
// files and profiles, SSO, web identity, the instance's role). The SDK's
// full S3 client, for everything S3 can do, was 7 MB of the binary and
// 2.5 MiB of memory at start.

// s3Bucket is one S3 bucket, or one of an S3-compatible store.
type s3Bucket struct {
	client    *http.Client
	creds     aws.CredentialsProvider // nil: anonymous
	signer    *v4.Signer
	region    string
	endpoint  *url.URL // scheme and host of the service, and its path on a custom endpoint
	pathStyle bool     // the bucket in the path, not in front of the host
	name      string
}

// emptySHA256 is the payload hash of a request without a body.
var emptySHA256 = func() string { h := sha256.Sum256(nil); return hex.EncodeToString(h[:]) }()

// objectURL is the URL of key in the bucket (key "" is the bucket).
func (b *s3Bucket) objectURL(key string) *url.URL {
	u := *b.endpoint
	p := strings.TrimSuffix(u.Path, "/")
	if b.pathStyle {
		p += "/" + s3Escape(b.name)
	} else {
		u.Host = b.name + "." + u.Host
	}
	p += "/" + s3Escape(key)
	u.RawPath = p
	u.Path, _ = url.PathUnescape(p)
	return &u
}

// s3Escape escapes a key as Signature V4 wants it in the canonical URI:
// everything but unreserved characters and '/'.
func s3Escape(key string) string {
	var b strings.Builder
	for i := 0; i < len(key); i++ {
		c := key[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~/", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// s3Attempts is how often a request is tried when S3 answers that it is
// busy (429, 5xx) or the connection fails, waiting 200 ms, then 400 ms.
const s3Attempts = 3

// do sends a signed GET and returns the response, or S3's error.
func (b *s3Bucket) do(ctx context.Context, u *url.URL, header http.Header) (*http.Response, error) {
	var lastErr error
	for attempt := range s3Attempts {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Duration(100<<attempt) * time.Millisecond):
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, err
		}
		req.URL = u
		for k, v := range header {
			req.Header[k] = v
		}
		req.Header.Set("X-Amz-Content-Sha256", emptySHA256)
		if b.creds != nil {
			creds, err := b.creds.Retrieve(ctx)
			if err != nil {
				return nil, fmt.Errorf("S3 credentials: %w", err)
			}
			if err := b.signer.SignHTTP(ctx, creds, req, emptySHA256, "s3", b.region, time.Now()); err != nil {
				return nil, err
			}
		}
		resp, err := b.client.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			lastErr = err
			continue
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			return resp, nil
		}
		lastErr = s3ErrorOf(resp)
		if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
			return nil, lastErr
		}
	}
	return nil, lastErr
}

// s3ErrorOf reads S3's XML error: its code says what went wrong
// (NoSuchBucket, AccessDenied, InvalidAccessKeyId).
func s3ErrorOf(resp *http.Response) error {
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	var e struct {
		Code    string `xml:"Code"`
		Message string `xml:"Message"`
	}
	msg := http.StatusText(resp.StatusCode)
	if xml.Unmarshal(body, &e) == nil && e.Code != "" {
		msg = e.Code
		if e.Message != "" {
			msg += ": " + e.Message
		}
	}
	return &statusError{status: resp.StatusCode, msg: "S3: " + msg}
}

func (b *s3Bucket) list(ctx context.Context, prefix, token string, max int) ([]objectInfo, string, error) {
	u := b.objectURL("")
	q := url.Values{"list-type": {"2"}, "prefix": {prefix}, "max-keys": {strconv.Itoa(max)}}
	if token != "" {
		q.Set("continuation-token", token)
	}
	u.RawQuery = strings.ReplaceAll(q.Encode(), "+", "%20")
	resp, err := b.do(ctx, u, nil)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	var page struct {
		IsTruncated           bool   `xml:"IsTruncated"`
		NextContinuationToken string `xml:"NextContinuationToken"`
		Contents              []struct {
			Key  string `xml:"Key"`
			Size int64  `xml:"Size"`
		} `xml:"Contents"`
	}
	if err := xml.NewDecoder(resp.Body).Decode(&page); err != nil {
		return nil, "", fmt.Errorf("S3: listing: %v", err)
	}
	objs := make([]objectInfo, 0, len(page.Contents))
	for _, o := range page.Contents {
		objs = append(objs, objectInfo{key: o.Key, size: o.Size})
	}
	next := ""
	if page.IsTruncated {
		if page.NextContinuationToken == "" {
			return nil, "", errors.New("S3: listing: a truncated page without a continuation token")
		}
		next = page.NextContinuationToken
	}
	return objs, next, nil
}

func (b *s3Bucket) read(ctx context.Context, key string, off int64) (io.ReadCloser, error) {
	h := http.Header{}
	if off > 0 {
		h.Set("Range", fmt.Sprintf("bytes=%d-", off))
	}
	resp, err := b.do(ctx, b.objectURL(key), h)
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// openS3Bucket opens an s3:// bucket with the SDK's default credential
// chain and the URL's parameters (docs/ingest.md, "Object storage").
func openS3Bucket(ctx context.Context, u *url.URL) (bucket, error) {
	q := u.Query()
	var (
		loadOpts                                                []func(*config.LoadOptions) error
		endpoint, roleARN                                       string
		anonymous, pathStyle, plainHTTP, dualstack, fips, accel bool
	)
	for _, key := range slices.Sorted(maps.Keys(q)) {
		value := q.Get(key)
		switch key {
		case "region":
			loadOpts = append(loadOpts, config.WithRegion(value))
		case "profile":
			loadOpts = append(loadOpts, config.WithSharedConfigProfile(value))
		case "endpoint":
			endpoint = value
		case "role":
			if !strings.HasPrefix(value, "arn:") {
				return nil, fmt.Errorf("invalid value for role: want an ARN (arn:...), not %q", value)
			}
			roleARN = value
		case "anonymous", "dualstack", "fips", "accelerate", "use_path_style", "s3ForcePathStyle", "hostname_immutable", "disable_https":
			on, err := strconv.ParseBool(value)
			if err != nil {
				return nil, fmt.Errorf("invalid value for %q: %w", key, err)
			}
			switch key {
			case "anonymous":
				anonymous = on
			case "dualstack":
				dualstack = on
			case "fips":
				fips = on
			case "accelerate":
				accel = on
			case "disable_https":
				plainHTTP = on
			default:
				// The endpoint's host is used as given: the bucket goes in
				// the path, not in front of the host.
				pathStyle = pathStyle || on
			}
		case "ssetype", "kmskeyid", "awssdk":
			// Settings of writes, and which SDK another tool uses: taken
			// and ignored, so that a URL written for that tool reads here.
		default:
			return nil, fmt.Errorf("unknown parameter %q for s3:// (runaway takes region, endpoint, use_path_style, profile, anonymous, role, disable_https, dualstack, fips, accelerate)", key)
		}
	}
	cfg, err := config.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		return nil, err
	}
	b := &s3Bucket{client: objectClient, region: cfg.Region, pathStyle: pathStyle, name: u.Host,
		signer: v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true })}
	if !anonymous {
		b.creds = cfg.Credentials
		if roleARN != "" {
			if cfg.Region == "" {
				return nil, errors.New("role needs a region: set AWS_REGION or the region parameter")
			}
			b.creds = aws.NewCredentialsCache(stscreds.NewAssumeRoleProvider(sts.NewFromConfig(cfg), roleARN))
		}
	}
	scheme := "https"
	if plainHTTP {
		scheme = "http"
	}
	if endpoint == "" {
		// An endpoint named by the environment, as the SDK reads it.
		endpoint = aws.ToString(cfg.BaseEndpoint)
	}
	switch {
	case endpoint != "":
		e, err := url.Parse(endpoint)
		if err != nil || e.Host == "" {
			return nil, fmt.Errorf("invalid value for endpoint: %q is not a URL", endpoint)
		}
		b.endpoint = e
		if b.region == "" {
			b.region = "us-east-1" // what S3-compatible stores sign with
		}
	case b.region == "":
		return nil, errors.New("no AWS region: set AWS_REGION or add ?region=REGION to the URL")
	default:
		b.endpoint = &url.URL{Scheme: scheme, Host: s3Host(b.region, dualstack, fips, accel)}
		// A bucket whose name has dots does not fit a TLS certificate of
		// *.s3.amazonaws.com: its name goes in the path.
		b.pathStyle = b.pathStyle || (strings.Contains(b.name, ".") && !accel)
	}
	return b, nil
}

// s3Host is the host of the S3 service of a region.
func s3Host(region string, dualstack, fips, accelerate bool) string {
	domain := "amazonaws.com"
	if strings.HasPrefix(region, "cn-") {
		domain = "amazonaws.com.cn"
	}
	var host string
	switch {
	case accelerate && dualstack:
		return "s3-accelerate.dualstack." + domain
	case accelerate:
		return "s3-accelerate." + domain
	case fips && dualstack:
		host = "s3-fips.dualstack." + region
	case fips:
		host = "s3-fips." + region
	case dualstack:
		host = "s3.dualstack." + region
	default:
		host = "s3." + region
	}
	return host + "." + domain
}
